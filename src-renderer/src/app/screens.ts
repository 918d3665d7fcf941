import type { ReactNode } from 'react';
import type { Role } from '../../../src-shared/scopes';

/** One screen of the app. Features export their screens; the shell routes and lists them. */
export interface Screen {
  /** Hash path pattern, e.g. `/shipments/:shipmentId`. */
  path: string;
  title: string;
  /** Shown in the navigation under this label when set; keyboard shortcut Alt+<key> when given. */
  nav?: { label: string; section: 'Work' | 'Settings'; key?: string };
  /** Roles that land here after signing in; everyone else lands on the first navigation screen without it. */
  startFor?: readonly Role[];
  render: (params: Record<string, string>) => ReactNode;
}
