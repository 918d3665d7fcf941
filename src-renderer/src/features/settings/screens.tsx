import type { Screen } from '../../app/screens';
import { lazyScreen } from '../../app/lazyScreen';

const ApiTokensScreen = lazyScreen(() => import('./ApiTokensScreen'), 'ApiTokensScreen');
const CarriersScreen = lazyScreen(() => import('./CarriersScreen'), 'CarriersScreen');
const OrderChannelsScreen = lazyScreen(() => import('./OrderChannelsScreen'), 'OrderChannelsScreen');
const OrganizationScreen = lazyScreen(() => import('./OrganizationScreen'), 'OrganizationScreen');
const PrintersScreen = lazyScreen(() => import('./PrintersScreen'), 'PrintersScreen');
const SenderAddressesScreen = lazyScreen(() => import('./SenderAddressesScreen'), 'SenderAddressesScreen');
const ShippingRulesScreen = lazyScreen(() => import('./ShippingRulesScreen'), 'ShippingRulesScreen');
const TeamMembersScreen = lazyScreen(() => import('./TeamMembersScreen'), 'TeamMembersScreen');
const UsageScreen = lazyScreen(() => import('./UsageScreen'), 'UsageScreen');
const WebhooksScreen = lazyScreen(() => import('./WebhooksScreen'), 'WebhooksScreen');

/** In the order they are set up: an address, where orders come from, a carrier, rules, printers; then the rest. */
export const settingsScreens: Screen[] = [
  {
    path: '/settings/sender-addresses',
    title: 'Sender addresses',
    nav: { label: 'Sender addresses', section: 'Settings' },
    render: () => <SenderAddressesScreen />,
  },
  { path: '/settings/order-channels', title: 'Order channels', nav: { label: 'Order channels', section: 'Settings' }, render: () => <OrderChannelsScreen /> },
  { path: '/settings/carriers', title: 'Carriers', nav: { label: 'Carriers', section: 'Settings' }, render: () => <CarriersScreen /> },
  { path: '/settings/shipping-rules', title: 'Shipping rules', nav: { label: 'Shipping rules', section: 'Settings' }, render: () => <ShippingRulesScreen /> },
  { path: '/settings/printers', title: 'Printers', nav: { label: 'Printers', section: 'Settings' }, render: () => <PrintersScreen /> },
  { path: '/settings/team-members', title: 'Team members', nav: { label: 'Team members', section: 'Settings' }, render: () => <TeamMembersScreen /> },
  { path: '/settings/api-tokens', title: 'API tokens', nav: { label: 'API tokens', section: 'Settings' }, render: () => <ApiTokensScreen /> },
  { path: '/settings/webhooks', title: 'Webhooks', nav: { label: 'Webhooks', section: 'Settings' }, render: () => <WebhooksScreen /> },
  { path: '/settings/organization', title: 'Organization', nav: { label: 'Organization', section: 'Settings' }, render: () => <OrganizationScreen /> },
  { path: '/settings/usage', title: 'Usage', nav: { label: 'Usage', section: 'Settings' }, render: () => <UsageScreen /> },
];
