import type Database from 'better-sqlite3';
import { joinWriteGroup, whenDurable } from './groupCommit';
import type { Db } from './types';

type DrizzleTx = Parameters<Parameters<Db['transaction']>[0]>[0];
declare const writeBrand: unique symbol;

/** A handle that may only be had inside a write transaction (see inWriteTransaction). */
export type WriteTx = DrizzleTx & { readonly [writeBrand]: true };
/** Anything reads may run on: the database or a transaction. */
export type ReadDb = Db | DrizzleTx;

/**
 * Runs `work` atomically: in its own savepoint of the connection's shared write transaction (see
 * groupCommit.ts), so it is all or nothing and committed, with its neighbours, on the next
 * `setImmediate`. Functions that change more than one row take a WriteTx, so calling them outside
 * a transaction does not compile.
 */
export function inWriteTransaction<T>(db: Db, work: (tx: WriteTx) => T): T {
  joinWriteGroup(db.$client);
  const handle = transactionHandleOf(db);
  return handle.run.immediate(work, handle.tx) as T;
}

/**
 * A connection's transaction handle, made once. Drizzle makes a new one per transaction, building a
 * query builder for every table of the schema (3 % of a create, issue 23); the handle holds no state
 * of its own transaction, and better-sqlite3 runs `run` as drizzle does (a savepoint inside the
 * group's transaction).
 */
interface TransactionHandle {
  tx: DrizzleTx;
  run: Database.Transaction<(work: (tx: WriteTx) => unknown, tx: DrizzleTx) => unknown>;
}
const transactionHandles = new WeakMap<Database.Database, TransactionHandle>();

function transactionHandleOf(db: Db): TransactionHandle {
  let handle = transactionHandles.get(db.$client);
  if (!handle) {
    // Drizzle hands its handle only to a transaction's work: an empty one (a savepoint in the group).
    const tx = db.transaction((made) => made, { behavior: 'immediate' });
    handle = { tx, run: db.$client.transaction((work: (tx: WriteTx) => unknown, tx: DrizzleTx) => work(tx as WriteTx)) };
    transactionHandles.set(db.$client, handle);
  }
  return handle;
}

/**
 * Waits until what this connection wrote so far is committed to disk. Doors call it before they
 * answer; domain code calls it before anything leaves the process (a carrier booking, a print, a
 * webhook), so the outside world never acts on a write a crash could undo.
 */
export async function durable(db: Db): Promise<void> {
  await whenDurable(db.$client);
}

/** Runs `work` in a SAVEPOINT of the caller's transaction: if it throws, only its own writes are undone. */
export function inSavepoint<T>(tx: WriteTx, work: (tx: WriteTx) => T): T {
  return tx.transaction((inner) => work(inner as WriteTx));
}
