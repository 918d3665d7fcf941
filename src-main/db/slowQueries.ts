import type Database from 'better-sqlite3';

/**
 * Statements that run longer than a threshold are reported with the operation that ran them, so a
 * warehouse that says "the shipment list got slow" can be answered from its log. Only the SQL text
 * is reported, never the parameters: they may hold customer data or a token's hash.
 */
export interface SlowQuery {
  /**
   * The operation id (`shipments.list`) when its handler ran the statement; null for work outside
   * a call (start-up, webhook runs) and for the steps of an async handler after its first await.
   */
  operationId: string | null;
  sql: string;
  ms: number;
}

export const SLOW_QUERY_MS = 40;

let currentOperation: string | null = null;

/**
 * Runs a handler of `operationId`: the statements it runs before it first awaits are attributed to
 * it. Statements are synchronous and handlers never interleave inside that stretch, so the
 * attribution is never wrong; it stops at the first await, where AsyncLocalStorage would carry on
 * at the price of a hook on every promise of every request.
 */
export function inOperation<T>(operationId: string, work: () => T): T {
  const outer = currentOperation;
  currentOperation = operationId;
  try {
    return work();
  } finally {
    currentOperation = outer;
  }
}

export function defaultSlowQueryReport({ operationId, sql, ms }: SlowQuery): void {
  const where = operationId ?? 'background work or a later step of an async call';
  console.warn(`Slow query: ${ms.toFixed(0)} ms in ${where}: ${sql.replace(/\s+/g, ' ').slice(0, 300)}`);
}

/** Wraps a statement's running methods with a clock; a fast statement costs two reads of it. */
export function timeStatement(statement: Database.Statement, thresholdMs: number, report: (slow: SlowQuery) => void): void {
  for (const method of ['run', 'get', 'all'] as const) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    Object.defineProperty(statement, method, {
      value: function timed(this: Database.Statement, ...args: unknown[]) {
        const started = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          const ms = performance.now() - started;
          if (ms > thresholdMs) report({ operationId: currentOperation, sql: statement.source, ms });
        }
      },
    });
  }
}
