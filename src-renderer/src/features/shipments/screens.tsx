import type { Screen } from '../../app/screens';

export const shipmentScreens: Screen[] = [];
