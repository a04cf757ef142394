import type { CapturedInfo } from './captured-message.repository';
import type { EmailRow, EventRow, RecipientRow } from './emails.repository';

/**
 * Where a test-mode message ended (issue 21): the capture's state and links. Live
 * mail has `capture: null`. `html`/`text` point at the preview the dashboard API
 * serves for every message; `raw` is the captured message as signed.
 */
export interface CaptureView {
  /**
   * `pending` before the hand-off, `captured`, `pruned` after CAPTURE_RETENTION_DAYS, or
   * `none`: the message ended without a hand-off (cancelled, stopped, failed).
   */
  readonly state: 'pending' | 'captured' | 'pruned' | 'none';
  /** Sent from a domain not yet verified: allowed in test mode only. */
  readonly unverifiedDomain: boolean;
  readonly capturedAt: string | null;
  readonly sizeBytes: number | null;
  readonly raw: string | null;
  readonly html: string | null;
  readonly text: string | null;
}

export function captureView(email: EmailRow, captured: CapturedInfo | undefined): CaptureView | null {
  if (email.mode !== 'test') return null;
  const base = `/v1/emails/${email.id}`;
  const state = captured
    ? 'captured'
    : email.sent_at !== null
      ? 'pruned'
      : email.status === 'queued' || email.status === 'processing'
        ? 'pending'
        : 'none';
  return {
    state,
    unverifiedDomain: email.unverified_domain === 1,
    capturedAt: captured?.captured_at ?? null,
    sizeBytes: captured?.size_bytes ?? null,
    raw: captured ? `${base}/raw` : null,
    html: captured && email.html !== null ? `${base}/preview?part=html` : null,
    text: captured && email.text !== null ? `${base}/preview?part=text` : null,
  };
}

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
  readonly tls: string | null;
  readonly node: string | null;
}

function json(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
}

/** The spec's Email object. `events` and `capture` only on the single-message view. */
export function emailView(
  email: EmailRow,
  recipients: readonly RecipientRow[],
  events?: readonly EventRow[],
  capture?: CaptureView | null,
) {
  return {
    id: email.id,
    status: email.status,
    mode: email.mode,
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
    ...(capture !== undefined ? { capture } : {}),
    ...(events
      ? {
          events: events.map((e): EventView => ({
            type: e.type,
            message: e.message,
            recipient: e.recipient,
            createdAt: e.created_at,
            tls: e.tls,
            node: e.node,
          })),
        }
      : {}),
  };
}
