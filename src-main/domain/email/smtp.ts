import { nodemailer } from '../../platform/lazyLibraries';

/** What an SMTP send needs, with the password opened (for this call only; never logged). */
export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  username: string | null;
  password: string | null;
  fromAddress: string;
}

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Our own Message-ID, so a message can be recognised at the receiving end. */
  messageId?: string;
}

export interface SmtpTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
}

export const defaultSmtpTimeouts: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

export type SendOutcome =
  | { ok: true; messageId: string }
  /** `temporary`: worth trying again later (a 4xx answer, a connection that failed); false for a definite refusal. */
  | { ok: false; message: string; temporary: boolean };

/** Sends one e-mail over SMTP and says in plain words what went wrong, never throwing. */
export async function sendEmail(config: SmtpConfig, email: OutgoingEmail, timeouts: SmtpTimeouts = defaultSmtpTimeouts): Promise<SendOutcome> {
  const transport = nodemailer().createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.username ? { user: config.username, pass: config.password ?? '' } : undefined,
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
  try {
    const info = await transport.sendMail({
      from: config.fromAddress,
      to: email.to,
      subject: email.subject,
      text: email.text,
      attachments: email.attachments,
      messageId: email.messageId,
    });
    return { ok: true, messageId: String(info.messageId ?? email.messageId ?? '') };
  } catch (error) {
    return { ok: false, ...describeSmtpError(error, config) };
  } finally {
    transport.close();
  }
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** A nodemailer failure in words a warehouse user can act on. */
export function describeSmtpError(error: unknown, config: Pick<SmtpConfig, 'host' | 'port' | 'secure'>): { message: string; temporary: boolean } {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SmtpError;
  const raw = `${e.message ?? ''}`;
  const server = `${config.host}:${config.port}`;
  const said = e.response ? ` The server said: ${e.response.trim()}` : '';
  if (e.code === 'EAUTH') {
    return { message: `The SMTP server refused the user name or password.${said}`, temporary: false };
  }
  if (e.code === 'EDNS' || /ENOTFOUND|EAI_AGAIN/.test(raw)) {
    return { message: `The server name ${config.host} could not be found: check the spelling.`, temporary: true };
  }
  if (/ECONNREFUSED/.test(raw)) {
    return { message: `The SMTP server at ${server} refused the connection: check the server name and port.`, temporary: true };
  }
  if (e.code === 'ETLS' || /SSL|TLS|certificate|wrong version number|self.signed/i.test(raw)) {
    const hint = config.secure
      ? 'With "secure" on, the server must speak TLS at once (usually port 465); for port 587 or 25 turn "secure" off.'
      : 'Check the server name matches its certificate, or ask the mail provider which port and TLS setting to use.';
    return { message: `A TLS (encryption) problem with ${server}: ${raw.trim()}. ${hint}`, temporary: false };
  }
  if (e.code === 'ETIMEDOUT' || e.code === 'ESOCKET' || e.code === 'ECONNECTION' || /timeout|timed out/i.test(raw)) {
    return { message: `No usable answer from ${server} in time (${raw.trim() || 'connection lost'}).`, temporary: true };
  }
  if (e.responseCode && e.responseCode >= 400 && e.responseCode < 500) {
    return { message: `The SMTP server could not take the e-mail now (temporary, code ${e.responseCode}).${said}`, temporary: true };
  }
  if (e.responseCode && e.responseCode >= 500) {
    return { message: `The SMTP server refused the e-mail (code ${e.responseCode}).${said}`, temporary: false };
  }
  return { message: `Sending failed: ${raw.trim() || 'unknown error'}`, temporary: true };
}
