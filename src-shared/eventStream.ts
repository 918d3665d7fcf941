/**
 * Reading a server-sent event stream (`GET /orgs/{orgId}/events`) from text chunks, as the WHATWG
 * rules say: lines end in LF, CRLF or CR; `:` starts a comment (heartbeats); a blank line ends an
 * event; `data` lines join with LF. Pure, so the renderer (fetch + ReadableStream, because
 * EventSource cannot send an Authorization header) and the tests read the stream the same way.
 */
export interface ServerSentEvent {
  /** The `id` of this event, or the last one seen before it (what Last-Event-ID sends back). */
  id: string | undefined;
  event: string;
  data: string;
}

export class EventStreamParser {
  private buffer = '';
  private lastId: string | undefined;
  private event = '';
  private data: string[] = [];

  /** Feeds one chunk; answers the events it completed. */
  push(chunk: string): ServerSentEvent[] {
    this.buffer += chunk;
    const done: ServerSentEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const event = this.line(line);
      if (event) done.push(event);
    }
    return done;
  }

  get lastEventId(): string | undefined {
    return this.lastId;
  }

  private line(line: string): ServerSentEvent | null {
    if (line === '') {
      const event = this.data.length ? { id: this.lastId, event: this.event || 'message', data: this.data.join('\n') } : null;
      this.event = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    return null;
  }
}
