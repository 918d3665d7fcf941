import type { Screen } from '../../app/screens';
import { lazyScreen } from '../../app/lazyScreen';

const PrintJobsScreen = lazyScreen(() => import('./PrintJobsScreen'), 'PrintJobsScreen');

/** Under Work: finding a label that never printed is part of the packing day, not a setting. */
export const printingScreens: Screen[] = [
  { path: '/print-jobs', title: 'Print jobs', nav: { label: 'Print jobs', section: 'Work', key: 'j' }, render: () => <PrintJobsScreen /> },
];
