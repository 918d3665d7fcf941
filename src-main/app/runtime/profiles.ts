import { eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import { users } from '../../db/schema';
import type { AppContext, ProfileName, ProfileSwitch } from '../kernel/context';
import { createAppContext } from './createApp';
import { databaseFile } from './config';
import { existsSync, rmSync } from 'node:fs';
import { seedDemoWarehouse } from '../../domain/demo/demoWarehouse';

/** The demo profile's name: its file is `shipdesk-demo.sqlite` beside the real one. */
export const DEMO_PROFILE = 'demo';

/** The demo file and SQLite's companions of it; the demo is made afresh each time it is entered. */
function removeDemoFiles(file: string): void {
  for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(name)) rmSync(name);
}

export interface ProfileFiles {
  real: string;
  demo: string;
}

/**
 * The real profile is the one the process was started with (SHIPDESK_PROFILE, default "default");
 * a process started in the demo (the desktop app relaunched into it) finds the real one in
 * SHIPDESK_REAL_PROFILE.
 */
export function profileFiles(dataDir: string, env: NodeJS.ProcessEnv = process.env): ProfileFiles & { startIn: ProfileName; realProfile: string } {
  const started = env.SHIPDESK_PROFILE ?? 'default';
  const startIn: ProfileName = started === DEMO_PROFILE ? 'demo' : 'real';
  const real = startIn === 'demo' ? (env.SHIPDESK_REAL_PROFILE ?? 'default') : started;
  return { real: databaseFile(dataDir, real), demo: databaseFile(dataDir, DEMO_PROFILE), startIn, realProfile: real };
}

export interface ProfileSwitchOptions {
  dataDir: string;
  files: ProfileFiles;
  current: ProfileName;
  migrationsFolder?: string;
  /** Opens `target`'s file in place of the current one; called once the switching call has been answered. */
  reopen: (target: ProfileName) => void;
}

/**
 * The switch a serving process hands its AppContext. Entering the demo builds a fresh demo file
 * for the asking user (the real file is not opened for writing); leaving it reopens the real file
 * as it was left. The current database stays open until the answer is out.
 */
export function profileSwitch(options: ProfileSwitchOptions, app: () => AppContext): ProfileSwitch {
  return {
    current: options.current,
    async switchTo(target, userId, answer) {
      if (target === options.current) {
        throw new ApiError('CONFLICT', target === 'demo' ? 'Demo mode is on already' : 'This is the real profile already');
      }
      const user = app().db.select().from(users).where(eq(users.id, userId)).get();
      if (!user) throw new ApiError('UNAUTHORIZED', 'Sign in again');
      const file = options.files[target];
      if (target === 'demo') removeDemoFiles(file);
      const other = createAppContext({
        dataDir: options.dataDir,
        databaseFile: file,
        ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
      });
      let result: Awaited<ReturnType<typeof answer>>;
      try {
        if (target === 'demo') await seedDemoWarehouse(other, user);
        else if (!other.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get()) {
          // Someone added in the demo has no place in the real profile.
          throw new ApiError('FORBIDDEN', 'Only a person of the real profile can go back to it; sign in as one');
        }
        result = await answer(other);
      } finally {
        other.close();
      }
      // After this call's answer has been written: the doors close and open on the other file.
      setTimeout(() => options.reopen(target), 50);
      return result;
    },
  };
}
