/**
 * An answer that is already JSON text (a shipment's full read, built by SQLite). The HTTP door sends
 * the text as it is instead of parsing and serialising it again; anything that needs the value
 * parses it. `toJSON` keeps `JSON.stringify` of it (kept idempotent answers, IPC) correct.
 */
export class JsonText<T> {
  constructor(readonly text: string) {}

  parse(): T {
    return JSON.parse(this.text) as T;
  }

  toJSON(): T {
    return this.parse();
  }
}
