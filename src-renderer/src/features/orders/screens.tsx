import type { Screen } from '../../app/screens';
import { lazyScreen } from '../../app/lazyScreen';

const OrdersScreen = lazyScreen(() => import('./OrdersScreen'), 'OrdersScreen');
const OrderDetailScreen = lazyScreen(() => import('./OrderDetailScreen'), 'OrderDetailScreen');

export const orderScreens: Screen[] = [
  { path: '/orders', title: 'Orders', nav: { label: 'Orders', section: 'Work', key: 'o' }, render: () => <OrdersScreen /> },
  // Keyed by id, so moving from one order to another starts with a fresh screen.
  { path: '/orders/:orderId', title: 'Order', render: ({ orderId = '' }) => <OrderDetailScreen key={orderId} orderId={orderId} /> },
];
