import type { Screen } from '../../app/screens';

export const settingsScreens: Screen[] = [];
