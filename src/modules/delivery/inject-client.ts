import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { injectCredential } from './inject-credential';

/** One recipient the MTA refused at RCPT TO. */
export interface RejectedRecipient {
  readonly address: string;
  readonly response: string;
  readonly statusCode: number | null;
}

/** The MTA took the message (its 250 after DATA). */
export interface HandOffAccepted {
  /** The MTA's final reply line, e.g. `250 Message Queued (…)`. */
  readonly response: string;
  readonly accepted: readonly string[];
  readonly rejected: readonly RejectedRecipient[];
}

export interface HandOff {
  /** The VERP address (`bounce+<email_id>@bounce.<domain>`). */
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: Buffer;
  /** Aborts the SMTP session (lease lost, worker stopping). */
  readonly signal?: AbortSignal | undefined;
}

/** Hands one message to the MTA; rejects with nodemailer's error when it did not take it. */
export type Injector = (handOff: HandOff) => Promise<HandOffAccepted>;

export interface InjectorOptions {
  readonly port: number;
  readonly secretKey: string;
  /** Name given in EHLO. */
  readonly hostname: string;
  /** Default 127.0.0.1: the injection listener is loopback-only. */
  readonly host?: string | undefined;
  /** Kept-open sessions at most (default INJECT_CONNECTIONS). */
  readonly connections?: number | undefined;
}

/**
 * Sessions the worker keeps open to the injection listener. Each carries one
 * message at a time; Haraka writes and fsyncs the queue files of several sessions
 * at once, so a few of them keep the MTA's disk busy while the worker builds the
 * next messages.
 */
export const INJECT_CONNECTIONS = 64;

/**
 * SMTP to Haraka's loopback injection listener with the internal credential
 * (AUTH PLAIN). No TLS: the connection never leaves the host. Sessions are pooled
 * (nodemailer's pool): connect, EHLO and AUTH once per session, then one
 * MAIL/RCPT/DATA after another, each answered by Haraka only once that message is
 * durably queued. A session the MTA closed while idle is replaced; one closed
 * before a message's first byte went out carries that message over another.
 */
export function createInjector(options: InjectorOptions): Injector {
  const auth = injectCredential(options.secretKey);
  let transport: ReturnType<typeof createPool> | undefined;
  const pool = (): ReturnType<typeof createPool> => {
    if (transport) return transport;
    transport = createPool({
      pool: true,
      maxConnections: options.connections ?? INJECT_CONNECTIONS,
      maxMessages: Infinity,
      host: options.host ?? '127.0.0.1',
      port: options.port,
      secure: false,
      ignoreTLS: true,
      auth,
      authMethod: 'PLAIN',
      name: options.hostname,
      // Loopback: a listener that does not answer within these is down or wedged, not slow.
      connectionTimeout: 10_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
      logger: false,
    });
    // Failures reach each message's own callback; the pool's event has nothing to add.
    transport.on('error', () => undefined);
    return transport;
  };
  return async (handOff) => {
    const info = await pool().sendMail({
      envelope: { from: handOff.from, to: [...handOff.to] },
      raw: handOff.raw,
      signal: handOff.signal,
    });
    return {
      response: info.response,
      accepted: info.accepted.map((a) => a.toLowerCase()),
      rejected: (info.rejectedErrors ?? []).map((e) => ({
        address: (e.recipient ?? '').toLowerCase(),
        response: e.response ?? e.message,
        statusCode: e.responseCode ?? null,
      })),
    };
  };
}

function createPool(options: SMTPPool.Options) {
  return nodemailer.createTransport(options);
}

/** Why a hand-off failed, and whether a later attempt can succeed. */
export interface HandOffFailure {
  /** True: retry later (no answer, 4xx, auth trouble). False: the MTA refused the message (5xx). */
  readonly transient: boolean;
  /** The worker gave up on its own (lease lost, stopping): nothing is known about the MTA's side. */
  readonly aborted: boolean;
  /** The MTA's reply, or the connection error. */
  readonly reason: string;
  readonly statusCode: number | null;
  /** Per-recipient refusals when every recipient was refused. */
  readonly rejected: readonly RejectedRecipient[];
}

interface NodemailerErrorShape {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly response?: unknown;
  readonly responseCode?: unknown;
  readonly rejectedErrors?: unknown;
  readonly recipient?: unknown;
}

function shape(error: unknown): NodemailerErrorShape {
  return typeof error === 'object' && error !== null ? error : {};
}

/**
 * Classifies what nodemailer threw. A reply code decides when there is one (5xx
 * is final, 4xx is not), except for authentication: a refused internal
 * credential is a configuration fault (SECRET_KEY differs between worker and
 * MTA) that an operator fixes, so the message waits instead of failing.
 */
export function classifyHandOffError(error: unknown): HandOffFailure {
  const e = shape(error);
  const message = typeof e.message === 'string' ? e.message : String(error);
  const aborted = e.name === 'AbortError' || e.code === 'EABORT' || e.code === 'ABORT_ERR';
  const statusCode = typeof e.responseCode === 'number' ? e.responseCode : null;
  const reason = typeof e.response === 'string' ? e.response : message;
  const permanent = statusCode !== null && statusCode >= 500 && statusCode !== 503 && e.code !== 'EAUTH';
  const rejected = Array.isArray(e.rejectedErrors)
    ? e.rejectedErrors.map((r: unknown) => {
        const re = shape(r);
        return {
          address: typeof re.recipient === 'string' ? re.recipient.toLowerCase() : '',
          response: typeof re.response === 'string' ? re.response : reason,
          statusCode: typeof re.responseCode === 'number' ? re.responseCode : null,
        };
      })
    : [];
  return {
    transient: !permanent,
    aborted,
    reason: reason.replace(/[\r\n]+/g, ' ').trim(),
    statusCode,
    rejected,
  };
}
