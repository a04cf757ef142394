import MailComposer from 'nodemailer/lib/mail-composer';
import { parseMailbox } from '../../mail/address';
import type { AttachmentRow } from './delivery.repository';
import type { EmailRow, RecipientRow } from '../emails';

export interface MimeAttachment {
  readonly filename: string;
  readonly contentType: string;
  /** Set: an inline image of the HTML (`cid:<value>`); unset: a regular attachment. */
  readonly cid: string | null;
  readonly content: Buffer;
}

/** Everything that goes into the message, and nothing else (no metadata, tags or Bcc). */
/** A bare address, or one with the display name it was given. */
export type MimeMailbox = string | { readonly name: string; readonly address: string };

export interface MimeInput {
  /**
   * Parsed parts only, never the text the client sent: nodemailer re-parses a
   * string, and a text our parser read as one mailbox could become several
   * (issue 17, finding 4). The composer quotes or RFC 2047-encodes the name.
   */
  readonly from: MimeMailbox;
  readonly to: readonly MimeMailbox[];
  readonly cc: readonly MimeMailbox[];
  readonly replyTo: readonly MimeMailbox[];
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
  /** Custom `X-` headers, already screened by the API. */
  readonly headers: Readonly<Record<string, string>>;
  /** With the angle brackets. */
  readonly messageId: string;
  readonly date: Date;
  readonly attachments: readonly MimeAttachment[];
}

/**
 * Assembles the message with nodemailer's composer. The tree has the levels the
 * content needs, nested as the spec describes:
 *
 *   multipart/mixed                      (when there are regular attachments)
 *     multipart/alternative              (when there is a text part)
 *       text/plain
 *       multipart/related                (when there are inline images)
 *         text/html
 *         image/*  Content-ID: <cid>, Content-Disposition: inline
 *     <attachment>  Content-Disposition: attachment
 *
 * Bcc is never passed to the composer, so it cannot reach the headers; the
 * envelope carries those recipients. File and URL access are disabled: content
 * only ever comes from the database.
 */
export async function buildMime(input: MimeInput): Promise<Buffer> {
  const composer = new MailComposer({
    from: input.from,
    to: input.to.length > 0 ? [...input.to] : undefined,
    cc: input.cc.length > 0 ? [...input.cc] : undefined,
    replyTo: input.replyTo.length > 0 ? [...input.replyTo] : undefined,
    subject: input.subject,
    text: input.text ?? undefined,
    html: input.html ?? undefined,
    headers: { ...input.headers },
    messageId: input.messageId,
    date: input.date,
    attachments: input.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      ...(a.cid !== null
        ? { cid: a.cid, contentDisposition: 'inline' }
        : { contentDisposition: 'attachment' }),
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

function stringArray(json: string | null): string[] {
  if (json === null) return [];
  const v: unknown = JSON.parse(json);
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function mailboxOf(name: string | null, address: string): MimeMailbox {
  return name === null ? address : { name, address };
}

/**
 * Reply-To as stored (the client's text) re-parsed into parts. A stored value the
 * current parser refuses (a row accepted before issue 17's fix) is left out
 * rather than handed to nodemailer as text.
 */
function replyToMailboxes(json: string | null): MimeMailbox[] {
  return stringArray(json).flatMap((value) => {
    const m = parseMailbox(value);
    return m ? [mailboxOf(m.name, m.address)] : [];
  });
}

/**
 * From: always the address the send was authorized for (`from_address`, whose
 * domain was checked as verified), with the display name parsed from the stored
 * header. A stored header the current parser refuses keeps no name.
 */
function fromMailbox(email: Pick<EmailRow, 'from_address' | 'from_header'>): MimeMailbox {
  const parsed = parseMailbox(email.from_header);
  return mailboxOf(parsed?.name ?? null, email.from_address);
}

function stringRecord(json: string | null): Record<string, string> {
  if (json === null) return {};
  const v: unknown = JSON.parse(json);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) if (typeof value === 'string') out[k] = value;
  return out;
}

/**
 * The message as stored at acceptance. Date is when the message was accepted (or
 * scheduled for), so every attempt builds the same headers.
 */
export function mimeInputFrom(
  email: EmailRow,
  recipients: readonly Pick<RecipientRow, 'address' | 'name' | 'type'>[],
  attachments: readonly AttachmentRow[],
): MimeInput {
  // nodemailer encodes a display name as an RFC 2047 word when it needs to.
  const mailbox = (r: Pick<RecipientRow, 'address' | 'name'>) => mailboxOf(r.name, r.address);
  return {
    from: fromMailbox(email),
    to: recipients.filter((r) => r.type === 'to').map(mailbox),
    cc: recipients.filter((r) => r.type === 'cc').map(mailbox),
    replyTo: replyToMailboxes(email.reply_to),
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: stringRecord(email.headers),
    messageId: email.message_id,
    date: new Date(email.scheduled_at ?? email.created_at),
    attachments: attachments.map((a) => ({
      filename: a.filename,
      contentType: a.content_type,
      cid: a.cid,
      content: a.content,
    })),
  };
}
