import { openDatabase, type OpenOptions } from '../../db/open';
import type { Db } from '../../db/types';
import { explainOpenFailure, refuseEmptyDatabase } from './damagedDatabase';
import { commitWriteGroup } from '../../db/groupCommit';
import { ForeignCommits } from '../../db/readCache';
import { createShipmentReadCache } from '../../domain/shipments/readCache';
import { createTokenCache } from '../../domain/auth/authenticate';
import { loadInstallationKeys } from './keys';
import { databaseFile } from './config';
import { FailedAuthLimiter } from '../../domain/auth/failedAuthLimiter';
import type { PrintingServices } from '../../printing/driver';
import type { AppContext } from '../kernel/context';
import { noteCommittedChanges } from '../../db/committedChanges';
import { PushBus } from '../kernel/pushes';

export interface CreateAppOptions extends OpenOptions {
  dataDir: string;
  databaseFile?: string;
  now?: () => Date;
  checkResponses?: boolean;
  printing?: PrintingServices;
  carrierHttp?: AppContext['carrierHttp'];
}

export function createAppContext(options: CreateAppOptions): AppContext {
  const file = options.databaseFile ?? databaseFile(options.dataDir);
  // Before SQLite sees it: it would take an empty file for a new installation.
  refuseEmptyDatabase(file, options.dataDir);
  let db: Db;
  try {
    db = openDatabase(file, options);
  } catch (error) {
    throw explainOpenFailure(error, file, options.dataDir);
  }
  const now = options.now ?? (() => new Date());
  const foreignCommits = new ForeignCommits(db.$client);
  const pushes = new PushBus();
  // Made now, with no transaction open, like the caches' triggers below.
  noteCommittedChanges(db.$client, (changes, truncated) => pushes.publishChanges(changes, truncated));
  return {
    db,
    keys: loadInstallationKeys(options.dataDir),
    dataDir: options.dataDir,
    now,
    failedAuth: new FailedAuthLimiter(now),
    foreignCommits,
    // Made now, with no transaction open: their triggers must not be undone by a rollback.
    shipmentReads: createShipmentReadCache(db.$client, foreignCommits),
    tokens: createTokenCache(db.$client, foreignCommits),
    pushes,
    checkResponses: options.checkResponses ?? false,
    ...(options.printing ? { printing: options.printing } : {}),
    ...(options.carrierHttp ? { carrierHttp: options.carrierHttp } : {}),
    close: () => {
      // Writes still waiting for their group commit are committed, not dropped.
      commitWriteGroup(db.$client);
      db.$client.close();
    },
  };
}
