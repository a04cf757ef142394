import constants from 'haraka-constants';
import type { SmtpVerdict } from '../src/mta/smtp-verdict';
import type { HarakaNext } from './types';

/**
 * The reply object Haraka passes through unchanged. connection.js respond()
 * recognises a reply by `msg.constructor.name === 'DSN'` and then answers with
 * `msg.code` and `msg.reply` instead of its fixed code for the hook (550 for any
 * RCPT DENY, 450 for DENYSOFT ...). That is how a verdict's exact code (452,
 * 552) reaches the client. Same shape as haraka-dsn's class, without depending
 * on that package.
 */
export class DSN {
  readonly reply: string;
  constructor(
    readonly code: number,
    status: string,
    text: string,
  ) {
    this.reply = `${status} ${text}`;
  }
}

export function dsnOf(verdict: SmtpVerdict): DSN {
  return new DSN(verdict.code, verdict.status, verdict.text);
}

/** Haraka's return code for a verdict. */
export function harakaCode(verdict: SmtpVerdict): number {
  switch (verdict.kind) {
    case 'accept':
      return constants.ok;
    case 'defer':
      return verdict.disconnect ? constants.denysoftdisconnect : constants.denysoft;
    case 'reject':
      return verdict.disconnect ? constants.denydisconnect : constants.deny;
  }
}

/** Answers a hook with a verdict, or with "no opinion" (CONT) when there is none. */
export function answer(next: HarakaNext, verdict: SmtpVerdict | undefined): void {
  if (verdict === undefined) {
    next();
    return;
  }
  next(harakaCode(verdict), dsnOf(verdict));
}
