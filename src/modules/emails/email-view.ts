import type { EmailRow, EventRow, RecipientRow } from './emails.repository';

export interface RecipientView {
  readonly email: string;
  readonly type: string;
  readonly status: string;
  readonly smtpResponse: string | null;
}

export interface EventView {
  readonly type: string;
  readonly message: string | null;
  readonly recipient: string | null;
  readonly createdAt: string;
}

function json(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
}

/** The spec's Email object. `events` only on the single-message view. */
export function emailView(
  email: EmailRow,
  recipients: readonly RecipientRow[],
  events?: readonly EventRow[],
) {
  return {
    id: email.id,
    status: email.status,
    subject: email.subject,
    fromAddress: email.from_address,
    from: email.from_header,
    domainId: email.domain_id,
    smtpResponse: email.smtp_response,
    attempts: email.attempts,
    createdAt: email.created_at,
    scheduledAt: email.scheduled_at,
    sentAt: email.sent_at,
    deliveredAt: email.delivered_at,
    messageId: email.message_id,
    replyTo: json(email.reply_to),
    headers: json(email.headers),
    tags: json(email.tags),
    metadata: json(email.metadata),
    recipients: recipients.map((r): RecipientView => ({
      email: r.address,
      type: r.type,
      status: r.status,
      smtpResponse: r.smtp_response,
    })),
    ...(events
      ? {
          events: events.map((e): EventView => ({
            type: e.type,
            message: e.message,
            recipient: e.recipient,
            createdAt: e.created_at,
          })),
        }
      : {}),
  };
}
