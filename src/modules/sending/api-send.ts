import { AppError, isAppError } from '../../shared/app-error';
import type { DomainRow } from '../domains/domains.repository';
import type { CommitDeps, MessageToCommit, ScreenedRecipient } from './commit-message';
import { commitMessage } from './commit-message';
import type { QuotaUsage } from '../quota/quota';

/**
 * An API send's commit step as plain data, so that it can cross to the api's
 * writer thread (src/http/send-writer.ts) by structured clone: MessageToCommit
 * without its functions (the API's Message-ID is always `<id@domain>`, nothing
 * is `stored`) and with the screening's refusal as data.
 */

/** An error as data: an AppError keeps what the HTTP answer needs, anything else its message and stack. */
export interface WireError {
  readonly app?: {
    readonly code: string;
    readonly status: number;
    readonly details: Record<string, unknown> | undefined;
    readonly headers: Record<string, string> | undefined;
  };
  readonly name: string;
  readonly message: string;
  readonly stack?: string | undefined;
  readonly cause?: WireError | undefined;
}

export function errorToWire(err: unknown, depth = 0): WireError {
  if (!(err instanceof Error) && !isAppError(err)) return { name: 'Error', message: String(err) };
  const e: Error = err;
  const cause = depth < 3 && e.cause !== undefined ? errorToWire(e.cause, depth + 1) : undefined;
  const app = isAppError(err)
    ? { code: err.code, status: err.status, details: err.details, headers: err.headers }
    : undefined;
  return { app, name: e.name, message: e.message, stack: e.stack, cause };
}

export function errorFromWire(w: WireError): Error {
  const cause = w.cause === undefined ? undefined : errorFromWire(w.cause);
  if (w.app) return new AppError({ ...w.app, message: w.message, cause });
  const err = new Error(w.message, cause === undefined ? undefined : { cause });
  err.name = w.name;
  if (w.stack !== undefined) err.stack = w.stack;
  return err;
}

export type ApiScreening =
  | { readonly ok: true; readonly recipients: readonly ScreenedRecipient[] }
  | { readonly ok: false; readonly refusal: WireError };

/** What POST /v1/emails hands to the commit step. */
export type ApiSend = Omit<MessageToCommit, 'messageId' | 'stored' | 'screening'> & {
  readonly screening: ApiScreening;
};

/**
 * What the commit step gives back: only what the answer and its log line need (the
 * domain row, sealed DKIM key included, stays in the writer thread).
 */
export interface Committed {
  readonly usage: QuotaUsage;
  readonly domainId: string;
}

/** Runs an API send's commit step (in the api's writer thread, or in this thread). */
export interface SendCommitter {
  commit(send: ApiSend): Promise<Committed>;
}

/** The API's Message-ID: the message's own id at the sending domain. */
export function apiMessageId(id: string, domain: Pick<DomainRow, 'domain'>): string {
  return `<${id}@${domain.domain}>`;
}

/** Back to what commitMessage takes (attachments arrive from another thread as plain Uint8Arrays). */
export function apiSendToCommit(send: ApiSend): MessageToCommit {
  return {
    ...send,
    screening: send.screening.ok
      ? send.screening
      : { ok: false, refusal: errorFromWire(send.screening.refusal) },
    messageId: (domain) => apiMessageId(send.id, domain),
    attachments: send.attachments.map((a) => {
      const bytes: Uint8Array = a.bytes;
      return {
        ...a,
        bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
      };
    }),
  };
}

/** The commit step of an API send (commit-message.ts), as the writer thread and the in-thread path run it. */
export async function commitApiSend(deps: CommitDeps, send: ApiSend): Promise<Committed> {
  const { usage, domain } = await commitMessage(deps, apiSendToCommit(send));
  return { usage, domainId: domain.id };
}
