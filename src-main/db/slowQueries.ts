import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';

/**
 * Statements that run longer than a threshold are reported with the operation that ran them, so a
 * warehouse that says "the shipment list got slow" can be answered from its log. Only the SQL text
 * is reported, never the parameters: they may hold customer data or a token's hash.
 */
export interface SlowQuery {
  /** The operation id (`shipments.list`), or null for work outside a call (start-up, webhooks). */
  operationId: string | null;
  sql: string;
  ms: number;
}

export const SLOW_QUERY_MS = 40;

const operation = new AsyncLocalStorage<string>();

/** Runs a call of `operationId`; statements it runs, across its awaits, are attributed to it. */
export function inOperation<T>(operationId: string, work: () => T): T {
  return operation.run(operationId, work);
}

export function defaultSlowQueryReport({ operationId, sql, ms }: SlowQuery): void {
  console.warn(`Slow query: ${ms.toFixed(0)} ms in ${operationId ?? 'background work'}: ${sql.replace(/\s+/g, ' ').slice(0, 300)}`);
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
          if (ms > thresholdMs) report({ operationId: operation.getStore() ?? null, sql: statement.source, ms });
        }
      },
    });
  }
}
