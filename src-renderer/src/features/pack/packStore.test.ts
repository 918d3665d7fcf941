import { beforeEach, describe, expect, it, vi } from 'vitest';

// The store reaches the client (lib/api.ts), which looks for Electron's bridge on `window` as it loads.
vi.hoisted(() => vi.stubGlobal('window', {}));

import { orderItem, orderLine, parcel, shipment } from '../../testing/shipmentFixtures';
import type { PackResult } from './packFlow';
import { activeVerification, restoreLog, shownToSend, usePack, verificationFor, type KeptLog } from './packStore';
import { progress, ticked } from './verification';

const shown = (status: 'pending' | 'error' | 'dispatched' = 'pending'): PackResult => ({
  kind: 'shipment',
  code: '1001',
  shipment: shipment({ status }),
  order: null,
  made: true,
  sent: false,
  print: null,
  otherOpen: 0,
  problem: null,
});
const onScreen = (result: PackResult, orgId = 'org_1') => ({ current: { orgId, entryId: 7, result }, sending: false, pending: 0 });

describe('what Enter in the empty scan box sends', () => {
  it('the shipment on screen, with the log line it belongs to', () => {
    const result = shown();
    expect(shownToSend(onScreen(result), 'org_1')).toEqual({ entryId: 7, result });
    expect(shownToSend(onScreen(shown('error')), 'org_1')).not.toBeNull();
  });

  it('nothing while a scan is still being handled: the shipment shown before it must not go', () => {
    expect(shownToSend({ ...onScreen(shown()), pending: 1 }, 'org_1')).toBeNull();
    expect(shownToSend({ ...onScreen(shown()), sending: true }, 'org_1')).toBeNull();
  });

  it('nothing that cannot be sent: a dispatched shipment, a problem, no result, another organization', () => {
    expect(shownToSend(onScreen(shown('dispatched')), 'org_1')).toBeNull();
    expect(shownToSend(onScreen({ kind: 'problem', code: '1001', problem: { title: 'Order 1001 is cancelled' } }), 'org_1')).toBeNull();
    expect(shownToSend({ current: null, sending: false, pending: 0 }, 'org_1')).toBeNull();
    expect(shownToSend(onScreen(shown(), 'org_2'), 'org_1')).toBeNull();
  });
});

describe('the scan list after a reload', () => {
  const kept: KeptLog = {
    userId: 'usr_1',
    log: [
      { id: 41, orgId: 'org_1', at: '2025-03-01T10:00:05.000Z', code: '1002', text: 'Working…', tone: 'working', repeats: 0 },
      {
        id: 40,
        orgId: 'org_1',
        at: '2025-03-01T10:00:00.000Z',
        code: '1001',
        text: 'Sent SHP-000001',
        tone: 'ok',
        link: { to: '/shipments/shp_1', label: 'Open' },
        repeats: 2,
      },
    ],
  };

  it('comes back with its times as dates and its finished lines as they were', () => {
    const [, done] = restoreLog(kept);
    expect(done).toEqual({ ...kept.log[1], at: new Date('2025-03-01T10:00:00.000Z') });
  });

  it('says a scan cut off by the reload was not finished, instead of working forever', () => {
    const [cut] = restoreLog(kept);
    expect(cut).toMatchObject({ id: 41, code: '1002', tone: 'bad', text: 'The page was reloaded before this was done: scan it again to see where it stands' });
  });
});

describe('checking items in the pack store', () => {
  // A pending shipment of 2 mugs and a teapot, with the order's lines (the mug's barcode, weights).
  // Each test its own shipment: a check left unfinished is kept by shipment for the session.
  let shipmentId = 'shp_0';
  beforeEach(() => {
    shipmentId = `shp_${Math.random().toString(36).slice(2)}`;
  });
  const result = (): Extract<PackResult, { kind: 'shipment' }> => ({
    kind: 'shipment',
    code: 'A-1001',
    shipment: shipment({ id: shipmentId, parcels: [parcel('prc_1', [orderLine('pol_mug', 'MUG-01', 2), orderLine('pol_pot', 'POT-01', 1)])] }),
    order: { id: 'ord_1', orderNumber: 'A-1001' },
    orderLines: [
      { ...orderLineOf('MUG-01'), name: 'Stoneware mug', barcode: '5701234567899', weight: 0.4, weightUnit: 'kg' },
      { ...orderLineOf('POT-01'), weight: 1.2, weightUnit: 'kg' },
    ],
    made: true,
    sent: false,
    print: null,
    otherOpen: 0,
    problem: null,
  });
  const show = () => {
    const shown = result();
    usePack.setState({
      current: { orgId: 'org_1', entryId: 1, result: shown },
      verification: verificationFor(shown, true),
      pending: 0,
      sending: false,
      cue: null,
    });
  };
  /** Scans in turn and waits until the store has handled them. */
  const scan = async (...codes: string[]) => {
    for (const code of codes) usePack.getState().scan('org_1', code);
    await vi.waitFor(() => expect(usePack.getState().pending).toBe(0));
  };
  const settled = () => new Promise((resolve) => setTimeout(resolve, 10));
  const checking = () => activeVerification(usePack.getState(), 'org_1');

  it('starts for a sendable shipment with codes when the station checks items, not otherwise', () => {
    expect(verificationFor(result(), true)?.lines).toHaveLength(2);
    expect(verificationFor(result(), false)).toBeNull();
    expect(verificationFor({ ...result(), shipment: shipment({ status: 'dispatched' }) }, true)).toBeNull();
  });

  it('ticks an item per scan, in the order read, with a right cue', async () => {
    show();
    await scan('MUG-01', '5701234567899');
    const verification = checking();
    expect(verification && ticked(verification, 'pol_mug')).toBe(2);
    expect(usePack.getState().cue).toMatchObject({ tone: 'right', text: 'MUG-01 Stoneware mug: 2 of 2, box 1. 2 of 3 units packed.' });
  });

  it('says too many and counts nothing past a line’s quantity', async () => {
    show();
    await scan('POT-01', 'POT-01');
    expect(usePack.getState().cue).toMatchObject({ tone: 'too-many' });
    expect(progress(checking() ?? fail()).ticked).toBe(1);
  });

  it('undoes the last tick and starts a next box only when the open one holds something', async () => {
    show();
    usePack.getState().startNextBox('org_1');
    await settled();
    expect(usePack.getState().cue).toMatchObject({ tone: 'wrong', text: 'Box 1 is still empty: scan an item into it first.' });
    await scan('MUG-01');
    usePack.getState().startNextBox('org_1');
    await settled();
    expect(checking()?.weights).toHaveLength(2);
    await scan('MUG-01');
    usePack.getState().undoTick('org_1');
    await settled();
    expect(usePack.getState().cue?.text).toBe('Taken back: one MUG-01, 1 of 2 now. 1 of 3 units packed.');
    expect(progress(checking() ?? fail()).ticked).toBe(1);
  });

  it('weighs the open box from a scale reading', async () => {
    show();
    await scan('MUG-01', '1,35 kg');
    expect(checking()?.weights).toEqual([{ weight: 1.35, weightUnit: 'kg' }]);
    expect(usePack.getState().cue).toMatchObject({ tone: 'info', text: 'Box 1 weighs 1.35 kg.' });
  });

  it('asks before a short pack, and sends nothing while nothing is packed', async () => {
    show();
    expect(usePack.getState().confirmSend('org_1')).toBe(false);
    expect(usePack.getState().cue).toMatchObject({ tone: 'wrong', text: 'Nothing is packed yet: scan the items of SHP-000001 first.' });
    await scan('MUG-01');
    expect(usePack.getState().confirmSend('org_1')).toBe('short');
    expect(usePack.getState().sending).toBe(false);
  });

  it('asks for the weight of a box nothing weighs before sending it', async () => {
    const unweighed = result();
    unweighed.shipment = shipment({ id: shipmentId, parcels: [parcel('prc_1', [orderLine('pol_mug', 'MUG-01', 1)], { weight: 0 })] });
    unweighed.orderLines = [orderLineOf('MUG-01')];
    usePack.setState({ current: { orgId: 'org_1', entryId: 1, result: unweighed }, verification: verificationFor(unweighed, true), cue: null });
    await scan('MUG-01');
    expect(usePack.getState().cue).toMatchObject({
      tone: 'info',
      text: 'Every item is packed. Weigh box 1: put it on the scale or type its weight, e.g. 1.25 kg.',
    });
    expect(usePack.getState().confirmSend('org_1')).toBe(false);
    expect(usePack.getState().cue?.text).toBe('Weigh box 1 first: put it on the scale or type its weight, e.g. 1.25 kg.');
    expect(usePack.getState().sending).toBe(false);
  });

  it('keeps a check left for another order, to go on with it when the order is scanned again', async () => {
    show();
    await scan('MUG-01');
    expect(ticked(verificationFor(result(), true) ?? fail(), 'pol_mug')).toBe(1);
  });
});

function fail(): never {
  throw new Error('no verification');
}

function orderLineOf(sku: string) {
  return orderItem(`oln_${sku}`, sku, sku);
}
