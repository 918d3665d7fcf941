import type { Screen } from '../../app/screens';
import { ShipmentsScreen } from './ShipmentsScreen';
import { lazyScreen } from '../../app/lazyScreen';

const ShipmentDetailScreen = lazyScreen(() => import('./ShipmentDetailScreen'), 'ShipmentDetailScreen');
const EditShipmentScreen = lazyScreen(() => import('./form/ShipmentFormScreen'), 'EditShipmentScreen');
const NewShipmentScreen = lazyScreen(() => import('./form/ShipmentFormScreen'), 'NewShipmentScreen');

/** First match wins: `/shipments/new` before `/shipments/:shipmentId`. */
export const shipmentScreens: Screen[] = [
  { path: '/shipments', title: 'Shipments', nav: { label: 'Shipments', section: 'Work', key: 's' }, render: () => <ShipmentsScreen /> },
  { path: '/shipments/new', title: 'New shipment', render: () => <NewShipmentScreen /> },
  {
    path: '/shipments/:shipmentId/edit',
    title: 'Edit shipment',
    render: ({ shipmentId = '' }) => <EditShipmentScreen key={shipmentId} shipmentId={shipmentId} />,
  },
  {
    path: '/shipments/:shipmentId',
    title: 'Shipment',
    render: ({ shipmentId = '' }) => <ShipmentDetailScreen key={shipmentId} shipmentId={shipmentId} />,
  },
];
