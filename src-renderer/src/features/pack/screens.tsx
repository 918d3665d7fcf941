import type { Screen } from '../../app/screens';
import { lazyScreen } from '../../app/lazyScreen';

const PackScreen = lazyScreen(() => import('./PackScreen'), 'PackScreen');

/** The packing station: first in the navigation, and where a packer lands after signing in. */
export const packScreens: Screen[] = [
  { path: '/pack', title: 'Pack', nav: { label: 'Pack', section: 'Work', key: 'p' }, startFor: ['packer'], render: () => <PackScreen /> },
];
