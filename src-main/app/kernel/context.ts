/**
 * The ports a domain function is given: the database, the installation's keys, the clock and the
 * caches, made once per process by runtime/createApp.ts and passed down (no globals). Types only,
 * so the domain depends on what it is given, never on how the process made it.
 */
import type { Db } from '../../db/types';
import type { CommittedReadCache, ForeignCommits } from '../../db/readCache';
import type { TokenAuth } from '../../domain/auth/principal';
import type { FailedAuthLimiter } from '../../domain/auth/failedAuthLimiter';
import type { PrintingServices } from '../../printing/driver';
import type { StorefrontTransportOptions } from '../../storefronts/http';
import type { PushBus } from './pushes';
import type { CarrierHttpOptions } from '../../carriers/platform/carrierHttp';

export interface InstallationKeys {
  /** HS256 key for JWT access tokens. */
  jwtSecret: Uint8Array;
  /** AES-256-GCM key for secrets that must be recoverable (webhook signing secrets, carrier passwords). */
  sealKey: Buffer;
}

/** Everything a service needs, made once per process and passed down (no globals). */
export interface AppContext {
  db: Db;
  keys: InstallationKeys;
  dataDir: string;
  now: () => Date;
  failedAuth: FailedAuthLimiter;
  /** Looked at once per request by the dispatcher, for the caches below (db/readCache.ts). */
  foreignCommits: ForeignCommits;
  /** Committed full reads of shipments, for `GET …/shipments/{id}` (domain/shipments/readCache.ts). */
  shipmentReads: CommittedReadCache<string>;
  /** Valid API tokens by hash (domain/auth/authenticate.ts). */
  tokens: CommittedReadCache<TokenAuth>;
  /** Status changes and print progress, told after commit to the windows and event streams (kernel/pushes.ts). */
  pushes: PushBus;
  /** Check every answer against the operation's response schema (on in tests). */
  checkResponses: boolean;
  /** Print drivers and discovery when they differ from plain Node's (the desktop app adds Electron's). */
  printing?: PrintingServices;
  /**
   * How storefront syncs reach the shops; tests point it at a local fake. Left out, the real
   * shop addresses are called with global fetch.
   */
  storefront?: StorefrontTransportOptions;
  /** Time limits and retry pacing of carrier calls; tests shorten them (carriers/platform/carrierHttp.ts). */
  carrierHttp?: Partial<Omit<CarrierHttpOptions, 'slotKey' | 'callsAtATime'>>;
  /** Switching between the real profile and the demo one (issue 20); absent where a process cannot (tests, CLI). */
  profiles?: ProfileSwitch;
  close: () => void;
}

export type ProfileName = 'real' | 'demo';

/**
 * The process's two database files in the data folder: the real one and the demo one. A switch
 * makes the other file ready, lets `answer` read it (a login for the same user there), and opens
 * it in place of this one once the current call has been answered.
 */
export interface ProfileSwitch {
  readonly current: ProfileName;
  switchTo<T>(target: ProfileName, userId: string, answer: (other: AppContext) => Promise<T>): Promise<T>;
}
