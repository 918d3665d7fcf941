import { describe, expect, it } from 'vitest';
import { EventStreamParser } from './eventStream';

describe('reading a server-sent event stream', () => {
  it('reads events across chunk borders, skips comments, joins data lines, keeps the last id', () => {
    const parser = new EventStreamParser();
    expect(parser.push(': connected\n\nid: abc-1\nevent: shipment.statusChanged\nda')).toEqual([]);
    // A CR at the end of a chunk may be half of a CRLF: the blank line is known with the next chunk.
    expect(parser.push('ta: {"a":1}\n\r')).toEqual([]);
    expect(parser.push('\n: heartbeat\r\n\r\nevent: resync\ndata: {}\ndata: more\n\n')).toEqual([
      { id: 'abc-1', event: 'shipment.statusChanged', data: '{"a":1}' },
      { id: 'abc-1', event: 'resync', data: '{}\nmore' },
    ]);
    expect(parser.push('data:plain\n\n')).toEqual([{ id: 'abc-1', event: 'message', data: 'plain' }]);
    expect(parser.lastEventId).toBe('abc-1');
    // An event without data is no event.
    expect(parser.push('event: nothing\n\n')).toEqual([]);
  });
});
