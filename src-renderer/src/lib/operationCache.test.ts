import { describe, expect, it } from 'vitest';
import { OperationCache, cacheKey, isInvalidatedBy, stableStringify } from './operationCache';

const org = 'org_1';
const statusChanged = (shipmentId: string, orgId = org) => ({ orgId, shipmentId, status: 'dispatched', previousStatus: 'processing' });
const progress = (orgId = org) => ({ orgId, printJobId: 'pjb_1', state: 'done' as const });

/** A call that answers when told to, counting calls per key. */
function fakeCalls() {
  const calls: { key: string; answer: (value: unknown) => void; fail: (error: unknown) => void }[] = [];
  const call = (operationId: string, input: unknown) => new Promise<unknown>((answer, fail) => calls.push({ key: cacheKey(operationId, input), answer, fail }));
  return { calls, call, count: (operationId: string, input: unknown) => calls.filter((item) => item.key === cacheKey(operationId, input)).length };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('cache keys', () => {
  it('are the operation and the input, whatever the order of its fields and undefined ones', () => {
    expect(cacheKey('shipments.list', { params: { orgId: org }, query: { page: 1, status: undefined, limit: 50 } })).toBe(
      cacheKey('shipments.list', { query: { limit: 50, page: 1 }, params: { orgId: org } }),
    );
    expect(cacheKey('shipments.list', { params: { orgId: org }, query: { page: 2 } })).not.toBe(
      cacheKey('shipments.list', { params: { orgId: org }, query: { page: 1 } }),
    );
    expect(cacheKey('shipments.get', { params: { orgId: org } })).not.toBe(cacheKey('shipments.list', { params: { orgId: org } }));
    expect(stableStringify({ b: [1, { d: 1, c: undefined }], a: null })).toBe('{"a":null,"b":[1,{"d":1}]}');
  });
});

describe('invalidation rules', () => {
  const read = (operationId: string, params: Record<string, string> = { orgId: org }) => ({ operationId, input: { params } });

  it('a status change makes the shipment lists, that shipment and orders stale, in its organization only', () => {
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1'), read('shipments.list'))).toBe(true);
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1'), read('shipments.get', { orgId: org, shipmentId: 'shp_1' }))).toBe(true);
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1'), read('shipments.get', { orgId: org, shipmentId: 'shp_2' }))).toBe(false);
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1'), read('orders.get', { orgId: org, orderId: 'ord_1' }))).toBe(true);
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1'), read('printJobs.list'))).toBe(false);
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1', 'org_2'), read('shipments.list'))).toBe(false);
    expect(isInvalidatedBy('shipment.statusChanged', statusChanged('shp_1'), read('carriers.list'))).toBe(false);
  });

  it('print progress makes the print-job lists stale; resync makes everything stale', () => {
    expect(isInvalidatedBy('print.progress', progress(), read('printJobs.list'))).toBe(true);
    expect(isInvalidatedBy('print.progress', progress(), read('shipments.list'))).toBe(false);
    expect(isInvalidatedBy('print.progress', progress('org_2'), read('printJobs.list'))).toBe(false);
    expect(isInvalidatedBy('resync', {}, read('carriers.list'))).toBe(true);
  });
});

describe('the operation cache', () => {
  const list = { params: { orgId: org }, query: { page: 1 } };

  it('shares one call among equal reads, and keeps the data', async () => {
    const fake = fakeCalls();
    const cache = new OperationCache(fake.call);
    const seen: unknown[] = [];
    cache.watch('shipments.list', list, () => seen.push(cache.snapshot('shipments.list', list)));
    cache.watch('shipments.list', { query: { page: 1 }, params: { orgId: org } }, () => undefined);
    const fetched = cache.fetch('shipments.list', list);
    expect(fake.calls).toHaveLength(1);
    fake.calls[0]?.answer({ data: ['a'] });
    expect(await fetched).toEqual({ data: ['a'] });
    expect(cache.snapshot('shipments.list', list)).toEqual({ data: { data: ['a'] }, error: undefined, loading: false });
    expect(seen.at(-1)).toEqual({ data: { data: ['a'] }, error: undefined, loading: false });
    expect(await cache.fetch('shipments.list', list)).toEqual({ data: ['a'] });
    expect(fake.calls).toHaveLength(1);
  });

  it('reads a shown entry again on a push, and drops one nobody shows', async () => {
    const fake = fakeCalls();
    const cache = new OperationCache(fake.call);
    const stop = cache.watch('shipments.list', list, () => undefined);
    const hidden = { params: { orgId: org }, query: { page: 2 } };
    void cache.fetch('shipments.list', hidden);
    for (const call of fake.calls) call.answer({ data: [] });
    await tick();
    expect(cache.size).toBe(2);

    cache.applyPush('shipment.statusChanged', statusChanged('shp_1'));
    expect(fake.count('shipments.list', list)).toBe(2);
    expect(fake.count('shipments.list', hidden)).toBe(1);
    expect(cache.size).toBe(1);
    // The data stays on screen while it is read again.
    expect(cache.snapshot('shipments.list', list)).toMatchObject({ data: { data: [] }, loading: true });
    stop();
  });

  it('reads afresh for a screen that opens again, as screens always did', async () => {
    const fake = fakeCalls();
    const cache = new OperationCache(fake.call);
    const stop = cache.watch('shipments.list', list, () => undefined);
    fake.calls[0]?.answer({ data: ['a'] });
    await tick();
    stop();
    // Before its watch, the opening screen is not shown the kept data either (a form would show it, then lose it).
    expect(cache.screenSnapshot('shipments.list', list)).toEqual({ data: undefined, error: undefined, loading: true });
    expect(cache.snapshot('shipments.list', list).data).toEqual({ data: ['a'] });
    cache.watch('shipments.list', list, () => undefined);
    expect(cache.snapshot('shipments.list', list)).toEqual({ data: undefined, error: undefined, loading: true });
    expect(fake.calls).toHaveLength(2);
    // A second screen on the same read shares it.
    cache.watch('shipments.list', list, () => undefined);
    expect(fake.calls).toHaveLength(2);
  });

  it('answers a burst of pushes with at most one more call after the one in flight', async () => {
    const fake = fakeCalls();
    const cache = new OperationCache(fake.call);
    cache.watch('shipments.list', list, () => undefined);
    fake.calls[0]?.answer({ data: [] });
    await tick();
    for (let i = 0; i < 100; i++) cache.applyPush('shipment.statusChanged', statusChanged(`shp_${i}`));
    expect(fake.calls).toHaveLength(2);
    fake.calls[1]?.answer({ data: ['old'] });
    await tick();
    // The answer in flight may predate the last pushes: one more read, and no more.
    expect(fake.calls).toHaveLength(3);
    fake.calls[2]?.answer({ data: ['new'] });
    await tick();
    expect(fake.calls).toHaveLength(3);
    expect(cache.snapshot('shipments.list', list).data).toEqual({ data: ['new'] });
  });

  it('keeps the data when a read again fails, with the error beside it', async () => {
    const fake = fakeCalls();
    const cache = new OperationCache(fake.call);
    cache.watch('shipments.list', list, () => undefined);
    fake.calls[0]?.answer({ data: ['a'] });
    await tick();
    void cache.reload('shipments.list', list).catch(() => undefined);
    fake.calls[1]?.fail(new Error('offline'));
    await tick();
    expect(cache.snapshot('shipments.list', list)).toMatchObject({ data: { data: ['a'] }, error: new Error('offline'), loading: false });
  });
});
