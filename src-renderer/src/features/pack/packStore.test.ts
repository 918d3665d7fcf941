import { describe, expect, it, vi } from 'vitest';

// The store reaches the client (lib/api.ts), which looks for Electron's bridge on `window` as it loads.
vi.hoisted(() => vi.stubGlobal('window', {}));

import { shipment } from '../../testing/shipmentFixtures';
import type { PackResult } from './packFlow';
import { restoreLog, shownToSend, type KeptLog } from './packStore';

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
