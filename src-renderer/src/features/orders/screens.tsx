import type { Screen } from '../../app/screens';

export const orderScreens: Screen[] = [];
