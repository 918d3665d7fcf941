import type { Db } from './open';

type DrizzleTx = Parameters<Parameters<Db['transaction']>[0]>[0];
declare const writeBrand: unique symbol;

/** A handle that may only be had inside a write transaction (see inWriteTransaction). */
export type WriteTx = DrizzleTx & { readonly [writeBrand]: true };
/** Anything reads may run on: the database or a transaction. */
export type ReadDb = Db | DrizzleTx;

/**
 * Runs `work` in one IMMEDIATE transaction. Functions that change more than one row take a WriteTx,
 * so calling them outside a transaction does not compile.
 */
export function inWriteTransaction<T>(db: Db, work: (tx: WriteTx) => T): T {
  return db.transaction((tx) => work(tx as WriteTx), { behavior: 'immediate' });
}

/** Runs `work` in a SAVEPOINT of the caller's transaction: if it throws, only its own writes are undone. */
export function inSavepoint<T>(tx: WriteTx, work: (tx: WriteTx) => T): T {
  return tx.transaction((inner) => work(inner as WriteTx));
}
