import type { DomainRow } from '../domains';
import type { CommitDeps, MessageToCommit } from './commit-message';
import type { ScreenedRecipient } from './recipient-screening';
import { commitMessage, commitMessages } from './commit-message';
import type { QuotaUsage } from '../quota';

/**
 * An API send's commit step as plain data, so that it can cross to the api's
 * writer thread (src/api/api-writer.ts) by structured clone: MessageToCommit
 * without its functions (the API's Message-ID is always `<id@domain>`, nothing
 * is `stored`), with the screened recipients.
 */

/**
 * What POST /v1/emails hands to the commit step: only a send whose screening
 * passed (a refusal the main thread already knows is raised there, send-email.ts).
 */
export type ApiSend = Omit<MessageToCommit, 'messageId' | 'stored' | 'screening'> & {
  readonly recipients: readonly ScreenedRecipient[];
};

/**
 * What the commit step gives back: only what the answer and its log line need (the
 * domain row, sealed DKIM key included, stays in the writer thread).
 */
export interface Committed {
  readonly usage: QuotaUsage;
  readonly domainId: string;
  /** Test mode sent from a domain not yet verified (the route says so in a header). */
  readonly unverifiedDomain: boolean;
}

/** Runs an API send's commit step: the api's writer thread (src/api/api-writer.ts). */
export interface SendCommitter {
  commit(send: ApiSend): Promise<Committed>;
  /** Several sends in one transaction, all or nothing (POST /v1/emails/batch). */
  commitBatch(sends: readonly ApiSend[]): Promise<Committed[]>;
}

/** The API's Message-ID: the message's own id at the sending domain. */
export function apiMessageId(id: string, domain: Pick<DomainRow, 'domain'>): string {
  return `<${id}@${domain.domain}>`;
}

/** Back to what commitMessage takes (attachments arrive from another thread as plain Uint8Arrays). */
export function apiSendToCommit(send: ApiSend): MessageToCommit {
  const { recipients, ...rest } = send;
  return {
    ...rest,
    screening: { ok: true, recipients },
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

/** The commit step of an API send (commit-message.ts): the api writer thread's `email.commit` unit. */
export async function commitApiSend(deps: CommitDeps, send: ApiSend): Promise<Committed> {
  const { usage, domain } = await commitMessage(deps, apiSendToCommit(send));
  return { usage, domainId: domain.id, unverifiedDomain: domain.status !== 'VERIFIED' };
}

/** The commit step of a batch: the api writer thread's `email.commit-batch` unit. */
export async function commitApiBatch(deps: CommitDeps, sends: readonly ApiSend[]): Promise<Committed[]> {
  const done = await commitMessages(deps, sends.map(apiSendToCommit));
  return done.map(({ usage, domain }) => ({
    usage,
    domainId: domain.id,
    unverifiedDomain: domain.status !== 'VERIFIED',
  }));
}
