import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { ClientResponseOf } from '../../../src-shared/client';
import type { InputOf } from '../../../src-shared/operation';
import type { OperationById, OperationId } from '../../../src-shared/operations';
import { shipdeskEventNames } from '../../../src-shared/ipc';
import { client } from './api';
import { OperationCache, cacheKey, type CachedRead, type ReadState } from './operationCache';
import { onPush } from './pushes';
import { useSession } from './session';

/** The one cache of the renderer's reads; pushes keep it current (operationCache.ts has the rules). */
export const operationCache = new OperationCache((operationId, input) => client.call(operationId as OperationId, input as never));

for (const event of shipdeskEventNames) onPush(event, (payload) => operationCache.applyPush(event, payload));
// Another user must never see this one's reads.
useSession.subscribe((state, previous) => {
  if (state.login?.user.id !== previous.login?.user.id) operationCache.clear();
});

export interface OperationRead<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** The key of this read; `dataKey` is that of the data shown (the previous read's while a new one loads). */
  key: string;
  dataKey: string | undefined;
}

/**
 * A read of the operation table through the cache: `useOperation('shipments.get', {params: {orgId,
 * shipmentId}})`. Equal reads anywhere share one entry and one call; a push about what it shows reads
 * it again. While a new input loads, the data of the previous one stays (tables do not flicker while
 * paging). `null` as input reads nothing (a read that waits for something else).
 */
export function useOperation<Id extends OperationId>(operationId: Id, input: InputOf<OperationById<Id>> | null): OperationRead<ClientResponseOf<Id>> {
  const key = input === null ? null : cacheKey(operationId, input);
  // The input as of its key: a new object with the same content is the same read.
  const stableInput = useMemo(() => input as CachedRead['input'] | null, [key]);
  const subscribe = useCallback(
    (listener: () => void) => (stableInput === null ? () => undefined : operationCache.watch(operationId, stableInput, listener)),
    [operationId, stableInput],
  );
  const getSnapshot = useCallback(
    (): ReadState | null => (stableInput === null ? null : operationCache.screenSnapshot(operationId, stableInput)),
    [operationId, stableInput],
  );
  const state = useSyncExternalStore(subscribe, getSnapshot);

  // What was last shown with data, so a new key shows the old data until its own arrives.
  const shown = useRef<{ key: string; data: unknown } | null>(null);
  useEffect(() => {
    if (key !== null && state?.data !== undefined) shown.current = { key, data: state.data };
  }, [key, state?.data]);
  const fallback = state?.data === undefined ? shown.current : null;

  const reload = useCallback(() => {
    if (stableInput !== null) void operationCache.reload(operationId, stableInput).catch(() => undefined);
  }, [operationId, stableInput]);

  return {
    // `null` is an answer ("no e-mail settings yet"), not a read still loading.
    data: (state?.data !== undefined ? state.data : fallback?.data) as ClientResponseOf<Id> | undefined,
    error: state?.error,
    loading: state?.loading ?? false,
    reload,
    key: key ?? '',
    dataKey: state?.data !== undefined ? (key ?? undefined) : fallback?.key,
  };
}

/**
 * Several reads of one operation, as many as the inputs (a table naming the products of each of the
 * organization's carriers): each is an entry of the cache like `useOperation`'s, shared with it. The
 * states come in the inputs' order; one that failed has its `error` and leaves the others alone.
 */
export function useOperations<Id extends OperationId>(
  operationId: Id,
  inputs: readonly InputOf<OperationById<Id>>[],
): readonly ReadState<ClientResponseOf<Id>>[] {
  const keys = inputs.map((input) => cacheKey(operationId, input)).join('\n');
  const stableInputs = useMemo(() => inputs as readonly CachedRead['input'][], [keys]);
  const subscribe = useCallback(
    (listener: () => void) => {
      const stops = stableInputs.map((input) => operationCache.watch(operationId, input, listener));
      return () => {
        for (const stop of stops) stop();
      };
    },
    [operationId, stableInputs],
  );
  // useSyncExternalStore wants the same snapshot while nothing changed: the last array, unless an entry's state is new.
  const last = useRef<readonly ReadState[]>([]);
  const getSnapshot = useCallback(() => {
    const states = stableInputs.map((input) => operationCache.screenSnapshot(operationId, input));
    const same = states.length === last.current.length && states.every((state, index) => state === last.current[index]);
    if (!same) last.current = states;
    return last.current;
  }, [operationId, stableInputs]);
  return useSyncExternalStore(subscribe, getSnapshot) as readonly ReadState<ClientResponseOf<Id>>[];
}

/** The cached data of a read, or a call when there is none yet: for flows outside a screen's render. */
export function readCached<Id extends OperationId>(operationId: Id, input: InputOf<OperationById<Id>>): Promise<ClientResponseOf<Id>> {
  return operationCache.fetch(operationId, input as CachedRead['input']) as Promise<ClientResponseOf<Id>>;
}
