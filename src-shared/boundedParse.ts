import { z } from 'zod';

/**
 * How many containers (objects, arrays, records) are checked for *every* problem before the parse
 * switches to reporting only the first problem of each container it enters after that. A form or
 * an ordinary body stays far below it and gets every problem; a body built of thousands of broken
 * order lines gets the first ones in full and then one problem per container.
 */
export const FULL_CHECK_CONTAINERS = 2_000;

export type BoundedParse<T> = { success: true; data: T } | { success: false; issues: Iterable<z.core.$ZodIssue> };

/**
 * `schema.safeParse(value)` whose cost on a bad body is bounded by the body's size rather than by
 * its number of problems (decisions §1 "Bounded work"). zod finds every problem of a value, and a
 * 123 KB shipment of 30 parcels × 1 000 empty order lines holds 60 000 of them: a plain safeParse
 * took 0.2–0.5 s of the one thread the HTTP server has, and building the issue objects was most of it.
 *
 * zod's own early stop (`abortEarly`, which its `validate` uses: a container stops at its first
 * problem) is read by each container as it starts, from the context passed down the whole parse.
 * A getter here turns it on once FULL_CHECK_CONTAINERS containers have started. A valid value is
 * parsed exactly as safeParse does (the early stop only acts once a problem is found); an invalid
 * one is reported with real problems only, the first of them in full. The issues are finalised
 * (their messages worded) lazily, as validationError reads them, so only those listed cost anything.
 *
 * This calls `_zod.run` as safeParse itself does, because safeParse copies its context (and would
 * freeze the getter). boundedParse.test.ts pins the behaviour, so a zod upgrade that changes it fails there.
 */
export function boundedSafeParse<T extends z.ZodType>(schema: T, value: unknown): BoundedParse<z.output<T>> {
  let containersStarted = 0;
  const ctx = {
    async: false,
    get abortEarly() {
      containersStarted += 1;
      return containersStarted > FULL_CHECK_CONTAINERS;
    },
  };
  const result = schema._zod.run({ value, issues: [] }, ctx as z.core.ParseContextInternal);
  if (result instanceof Promise) throw new z.core.$ZodAsyncError();
  if (result.issues.length === 0) return { success: true, data: result.value as z.output<T> };
  const raw = result.issues;
  const config = z.core.config();
  return {
    success: false,
    issues: (function* () {
      for (const issue of raw) yield z.core.util.finalizeIssue(issue, ctx as z.core.ParseContextInternal, config);
    })(),
  };
}
