import { describe, expect, it } from 'vitest';
import { ipcEventChannelOf, shipdeskEventNames } from '../../src-shared/ipc';
import { ipcChannelOf } from '../../src-shared/operation';
import { operations } from '../../src-shared/operations';
import { pushEvent } from './events';

describe('pushes', () => {
  it('sends a typed payload on the channel the preload listens to', () => {
    const sent: [string, unknown][] = [];
    pushEvent({ send: (channel, payload) => sent.push([channel, payload]) }, 'print.progress', { orgId: 'org_1', printJobId: 'pjb_1', state: 'done' });
    expect(sent).toEqual([[ipcEventChannelOf('print.progress'), { orgId: 'org_1', printJobId: 'pjb_1', state: 'done' }]]);
  });

  it('keeps event channels apart from operation channels', () => {
    const opChannels = new Set(operations.map((op) => ipcChannelOf(op.id)));
    const eventChannels = shipdeskEventNames.map(ipcEventChannelOf);
    expect(new Set(eventChannels).size).toBe(eventChannels.length);
    for (const channel of eventChannels) expect(opChannels.has(channel)).toBe(false);
  });
});
