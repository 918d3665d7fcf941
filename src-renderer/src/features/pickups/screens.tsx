import type { Screen } from '../../app/screens';
import { PickupsScreen } from './PickupsScreen';

/** Before the shipment screens: `/shipments/pickups` is not a shipment id. */
export const pickupScreens: Screen[] = [{ path: '/shipments/pickups', title: 'Pickups', render: () => <PickupsScreen /> }];
