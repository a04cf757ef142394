/**
 * One SMTP client connection of the sender, over nodemailer's SMTP client
 * (`nodemailer/lib/smtp-connection`): connect, EHLO as MAIL_HOSTNAME, STARTTLS when offered (or
 * required), AUTH for the relay, then any number of transactions until the pool closes it.
 * nodemailer speaks the protocol (PIPELINING, SIZE, 8BITMIME, SMTPUTF8 when offered; RFC 5321
 * §4.2 421 handling); this file adds the RFC 5321 §4.5.3.2 timeouts per phase and records
 * which TLS protected the session, as src/mta/outbound-tls-session.ts does for Haraka.
 */
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { PLAINTEXT, describeTls } from '../mta/outbound-tls-session';

/**
 * RFC 5321 §4.5.3.2 (milliseconds). nodemailer has a connect and a greeting timer and one
 * inactivity timer; the latter is set per phase here: the envelope commands (MAIL, RCPT, DATA
 * initiation pipelined with them), the message body, and the wait for the reply to the final dot.
 */
export interface SmtpTimeouts {
  /** TCP connect (not in §4.5.3.2; Postfix's smtp_connect_timeout is 30 s). */
  readonly connectMs: number;
  /** §4.5.3.2.1 initial 220: 5 min; also bounds the STARTTLS handshake. */
  readonly greetingMs: number;
  /** §4.5.3.2.2 MAIL, §4.5.3.2.3 RCPT: 5 min each. */
  readonly commandMs: number;
  /** §4.5.3.2.5 data block: 3 min. */
  readonly dataBlockMs: number;
  /** §4.5.3.2.6 DATA termination: 10 min (the remote may be filtering the message). */
  readonly dataEndMs: number;
}

const MINUTE = 60_000;
export const RFC5321_TIMEOUTS: SmtpTimeouts = {
  connectMs: 30_000,
  greetingMs: 5 * MINUTE,
  commandMs: 5 * MINUTE,
  dataBlockMs: 3 * MINUTE,
  dataEndMs: 10 * MINUTE,
};

/** How the session is protected before any transaction. */
export type TlsMode =
  /** STARTTLS when offered, certificate not checked (RFC 7435 opportunistic security; as Haraka). */
  | { readonly kind: 'opportunistic' }
  /** MTA-STS enforce (RFC 8461 §5): STARTTLS required, certificate valid for `servername`. */
  | { readonly kind: 'verified'; readonly servername: string }
  /** The relay: implicit TLS or STARTTLS, as configured, verified against its host name. */
  | { readonly kind: 'relay'; readonly secure: boolean; readonly requireTls: boolean };

export interface LinkOptions {
  readonly address: string;
  readonly port: number;
  readonly localAddress?: string | undefined;
  /** EHLO name: MAIL_HOSTNAME. */
  readonly name: string;
  readonly tls: TlsMode;
  readonly auth?: { readonly user: string; readonly pass: string } | undefined;
  readonly timeouts: SmtpTimeouts;
  /** Extra trusted CAs (EXTRA_CA_FILE) for verified sessions, besides the system's. */
  readonly ca?: readonly string[] | undefined;
}

/** An error of nodemailer's client, as far as the sender reads it. */
export interface SmtpFailure {
  readonly code: string | null;
  /** The system or TLS error beneath it (ECONNREFUSED, CERT_HAS_EXPIRED …). */
  readonly originalCode: string | null;
  /** The remote's reply line(s), when the failure is one. */
  readonly response: string | null;
  readonly responseCode: number | null;
  readonly message: string;
  /** The command that failed (`CONN`, `EHLO`, `MAIL FROM`, `RCPT TO`, `DATA` …). */
  readonly command: string | null;
  readonly recipient?: string | undefined;
}

export function smtpFailure(err: unknown): SmtpFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    code: str(e.code),
    originalCode: str(e.originalCode),
    response: str(e.response),
    responseCode: typeof e.responseCode === 'number' ? e.responseCode : null,
    message: err instanceof Error ? err.message : String(err),
    command: str(e.command),
    ...(typeof e.recipient === 'string' ? { recipient: e.recipient } : {}),
  };
}

export interface SentInfo {
  readonly accepted: readonly string[];
  readonly rejectedErrors: readonly SmtpFailure[];
  /** The reply to the final dot. */
  readonly response: string;
}

export type SendResult =
  | { readonly ok: true; readonly info: SentInfo }
  | { readonly ok: false; readonly failure: SmtpFailure; readonly rejectedErrors: readonly SmtpFailure[] };

/** nodemailer's client with the options its typings (@types/nodemailer 8) do not list yet. */
type ClientOptions = SMTPConnection.Options & { servername?: string; socketCloseTimeout?: number };

export class SmtpLink {
  private readonly client: SMTPConnection;
  /** `TLSv1.3 TLS_AES_256_GCM_SHA384` or `plaintext`, once connected. */
  tls: string | null = null;
  /** The connection ended (error, 421, idle close): never handed out again. */
  broken = false;
  messages = 0;

  constructor(readonly options: LinkOptions) {
    const { tls: mode, timeouts } = options;
    // The relay's certificate is checked when TLS is required of it (its AUTH credentials then
    // never go to an impostor); otherwise STARTTLS is opportunistic, as Haraka's outbound was.
    const verify = mode.kind === 'verified' || (mode.kind === 'relay' && (mode.requireTls || mode.secure));
    const servername = mode.kind === 'verified' ? mode.servername : undefined;
    const clientOptions: ClientOptions = {
      host: options.address,
      port: options.port,
      name: options.name,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      secure: mode.kind === 'relay' && mode.secure,
      requireTLS: mode.kind === 'verified' || (mode.kind === 'relay' && mode.requireTls),
      opportunisticTLS: !verify,
      ...(servername === undefined ? {} : { servername }),
      tls: {
        rejectUnauthorized: verify,
        ...(servername === undefined ? {} : { servername }),
        ...(verify && options.ca !== undefined ? { ca: [...options.ca] } : {}),
      },
      connectionTimeout: timeouts.connectMs + timeouts.greetingMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.commandMs,
      ...(options.auth === undefined ? {} : { auth: { user: options.auth.user, pass: options.auth.pass } }),
      logger: false,
    };
    this.client = new SMTPConnection(clientOptions);
    // An idle pooled connection the remote drops (or a 421 to nobody) must not crash the process.
    this.client.on('error', () => {
      this.broken = true;
    });
    this.client.on('end', () => {
      this.broken = true;
    });
  }

  /** The session's socket (the TLSSocket after STARTTLS); nodemailer sets it false once closed. */
  private socket(): Socket | null {
    const socket = (this.client as unknown as { _socket?: unknown })._socket;
    return socket instanceof Socket ? socket : null;
  }

  /** Connect, EHLO, STARTTLS, AUTH; rejects with an SmtpFailure. */
  async open(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      // nodemailer reports a failed connect (refused, timeout, a refusing greeting, TLS) as an
      // 'error' event, not through the connect callback.
      const onError = (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)));
      this.client.once('error', onError);
      this.client.connect((err) => {
        this.client.off('error', onError);
        if (err) reject(err);
        else resolve();
      });
    }).catch((err: unknown) => {
      this.broken = true;
      throw Object.assign(new Error(smtpFailure(err).message), { failure: smtpFailure(err) });
    });
    this.tls = this.client.secure ? describeTls((this.socket() as TLSSocket | null) ?? undefined) : PLAINTEXT;
    const auth = this.options.auth;
    if (auth === undefined) return;
    await new Promise<void>((resolve, reject) => {
      this.client.login({ user: auth.user, pass: auth.pass }, (err) => (err ? reject(err) : resolve()));
    }).catch((err: unknown) => {
      this.broken = true;
      this.close();
      throw Object.assign(new Error(smtpFailure(err).message), { failure: smtpFailure(err) });
    });
  }

  /** One transaction. Never rejects: the remote's answers are values. */
  send(from: string, to: readonly string[], message: Buffer): Promise<SendResult> {
    this.messages++;
    const socket = this.socket();
    const { timeouts } = this.options;
    socket?.setTimeout(timeouts.commandMs);
    // The body is read only once the remote answered 354 (nodemailer pipes it then): from then
    // on the data phases' timers. A 'data' listener would start the stream early; read() does not.
    const body = new Readable({
      read() {
        socket?.setTimeout(timeouts.dataBlockMs);
        this.push(message);
        this.push(null);
      },
    });
    body.once('end', () => socket?.setTimeout(timeouts.dataEndMs));
    const envelope = {
      from,
      to: [...to],
      size: message.length,
      // RFC 6152: any byte above 127 needs BODY=8BITMIME (nodemailer adds it when offered).
      use8BitMime: message.some((byte) => byte > 127),
    };
    return new Promise<SendResult>((resolve) => {
      this.client.send(envelope, body, (err, info) => {
        if (err) {
          const extra = (err as { rejectedErrors?: unknown }).rejectedErrors;
          resolve({
            ok: false,
            failure: smtpFailure(err),
            rejectedErrors: Array.isArray(extra) ? extra.map(smtpFailure) : [],
          });
          return;
        }
        resolve({
          ok: true,
          info: {
            accepted: info.accepted,
            rejectedErrors: (info.rejectedErrors ?? []).map(smtpFailure),
            response: info.response,
          },
        });
      });
    });
  }

  /** RSET after a transaction that ended in an error, so the next starts clean (RFC 5321 §4.1.1.5). */
  async reset(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.client.reset((err) => {
        if (err) this.broken = true;
        resolve(err === undefined || err === null);
      });
    });
  }

  close(): void {
    this.broken = true;
    try {
      this.client.quit();
    } catch {
      this.client.close();
    }
  }
}

/** The SmtpFailure an `open()` rejected with. */
export function openFailure(err: unknown): SmtpFailure {
  const failure = (err as { failure?: SmtpFailure } | null)?.failure;
  return failure ?? smtpFailure(err);
}
