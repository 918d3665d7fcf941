import type { Screen } from './screens';
import { packScreens } from '../features/pack/screens';
import { shipmentScreens } from '../features/shipments/screens';
import { pickupScreens } from '../features/pickups/screens';
import { orderScreens } from '../features/orders/screens';
import { settingsScreens } from '../features/settings/screens';
import { printingScreens } from '../features/printing/screens';
import { onboardingScreens } from '../features/onboarding/screens';

/** Every screen of the app, first match wins. */
export const screens: Screen[] = [
  ...packScreens,
  ...pickupScreens,
  ...shipmentScreens,
  ...orderScreens,
  ...printingScreens,
  ...settingsScreens,
  ...onboardingScreens,
];
