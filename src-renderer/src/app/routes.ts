import type { Screen } from './screens';
import { shipmentScreens } from '../features/shipments/screens';
import { orderScreens } from '../features/orders/screens';
import { settingsScreens } from '../features/settings/screens';

/** Every screen of the app, first match wins. */
export const screens: Screen[] = [...shipmentScreens, ...orderScreens, ...settingsScreens];
