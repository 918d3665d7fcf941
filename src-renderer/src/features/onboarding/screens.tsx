import type { Screen } from '../../app/screens';
import { lazyScreen } from '../../app/lazyScreen';

const GettingStartedScreen = lazyScreen(() => import('./GettingStartedScreen'), 'GettingStartedScreen');

/** Not in the navigation's lists: the shell shows its own entry while the checklist is open (Shell.tsx). */
export const onboardingScreens: Screen[] = [{ path: '/getting-started', title: 'Getting started', render: () => <GettingStartedScreen /> }];
