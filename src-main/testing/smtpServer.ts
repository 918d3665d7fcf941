/**
 * A real SMTP server on 127.0.0.1 for the e-mail tests (smtp-server, the server half of nodemailer).
 * It records what it receives, and can refuse logins, answer 4xx/5xx, or take its time, on demand.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  from: string;
  to: string[];
  /** The message as received (headers and MIME body). */
  raw: string;
  /** `raw` with quoted-printable and base64 text parts decoded, for plain assertions on words and links. */
  text: string;
  subject: string;
  messageId: string | null;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  username: string;
  password: string;
  received: ReceivedEmail[];
  /** Answer the message (DATA) with this code and text instead of accepting it: 451 (temporary), 550 (refused). */
  failWith: { code: number; message: string } | null;
  /** Refuse every login, whatever the password. */
  refuseAuth: boolean;
  /** Hold each message this long before answering (a slow server). */
  delayMs: number;
  /** Messages answered with `failWith`. */
  refusedCount: number;
  /** Resolves when `received` has this many messages. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i]!;
    if (ch === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(ch, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Decodes the text parts of a MIME message well enough for tests; attachments stay as they are. */
function readableText(raw: string): string {
  let out = raw;
  if (/Content-Transfer-Encoding: quoted-printable/i.test(raw)) {
    out = out.replace(
      /(Content-Transfer-Encoding: quoted-printable\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([\s\S]*?)(?=\r?\n--|$)/gi,
      (_m, head: string, body: string) => head + decodeQuotedPrintable(body),
    );
  }
  return out;
}

function header(raw: string, name: string): string | null {
  const match = new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
  return match ? match[1]!.replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}

function decodeHeaderWords(value: string): string {
  return value
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    )
    .replace(/\?=\s+=\?/g, '');
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const settle = () => {
    for (const waiter of [...waiters]) {
      if (state.received.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const state: TestSmtpServer = {
    host: '127.0.0.1',
    port: 0,
    username: 'shop@example.com',
    password: 'smtp-password-1234',
    received: [],
    failWith: null,
    refuseAuth: false,
    delayMs: 0,
    refusedCount: 0,
    waitFor: (count) =>
      new Promise((resolve) => {
        waiters.push({ count, resolve });
        settle();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (!state.refuseAuth && auth.username === state.username && auth.password === state.password) {
        callback(null, { user: auth.username });
      } else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const finish = () => {
          if (state.failWith) {
            state.refusedCount++;
            callback(Object.assign(new Error(state.failWith.message), { responseCode: state.failWith.code }));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          state.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            text: readableText(raw),
            subject: decodeHeaderWords(header(raw, 'Subject') ?? ''),
            messageId: header(raw, 'Message-ID'),
          });
          callback();
          settle();
        };
        if (state.delayMs > 0) setTimeout(finish, state.delayMs);
        else finish();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.port = (server.server.address() as AddressInfo).port;
  return state;
}
