import type { Screen } from '../../app/screens';
import { lazyScreen } from '../../app/lazyScreen';

const PickupsScreen = lazyScreen(() => import('./PickupsScreen'), 'PickupsScreen');

/** Before the shipment screens: `/shipments/pickups` is not a shipment id. */
export const pickupScreens: Screen[] = [{ path: '/shipments/pickups', title: 'Pickups', render: () => <PickupsScreen /> }];
