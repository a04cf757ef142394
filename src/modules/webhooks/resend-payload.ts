import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Resend's webhook body (issue 20; node_modules/resend WebhookEventPayload, resend@6.38.0):
 * `{type, created_at, data: {email_id, created_at, from, to, subject, message_id, tags, …}}`,
 * built at delivery from the spec's payload and the message it names. The event names are
 * the same in both formats for the events Mailroom has.
 */
export interface ResendEventPayload {
  readonly type: string;
  readonly created_at: string;
  readonly data: Record<string, unknown>;
}

interface SpecPayload {
  readonly event: string;
  readonly emailId: string | null;
  readonly timestamp: string;
  readonly recipient: string | null;
  readonly reason?: string;
  readonly statusCode?: number | string | null;
  readonly from?: string;
  readonly to?: string[];
  readonly subject?: string;
  readonly unparsed?: boolean;
  readonly unparsedReason?: string | null;
}

function tagsOf(json: string | null): Record<string, string> | undefined {
  if (json === null) return undefined;
  const v: unknown = JSON.parse(json);
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : undefined;
}

/** The Resend-format body of one outbox entry (`payload` is the spec's JSON). */
export async function resendPayload(db: Kysely<Database>, userId: string, payload: string): Promise<string> {
  const p = JSON.parse(payload) as SpecPayload;
  const base = { type: p.event, created_at: p.timestamp };
  if (p.event === 'email.received') {
    const data = {
      email_id: p.emailId,
      created_at: p.timestamp,
      from: p.from ?? '',
      to: p.to ?? [],
      cc: [],
      bcc: [],
      received_for: p.recipient === null ? [] : [p.recipient],
      message_id: '',
      subject: p.subject ?? '',
      attachments: [],
      // A message that could not be parsed says so (Resend has no such message: extra fields).
      ...(p.unparsed === true ? { unparsed: true, unparsed_reason: p.unparsedReason ?? null } : {}),
    };
    return JSON.stringify({ ...base, data } satisfies ResendEventPayload);
  }
  const email =
    p.emailId === null
      ? undefined
      : await db
          .selectFrom('emails')
          .select(['id', 'from_header', 'subject', 'message_id', 'tags', 'created_at'])
          .where('user_id', '=', userId)
          .where('id', '=', p.emailId)
          .executeTakeFirst();
  const to =
    email === undefined
      ? []
      : (
          await db
            .selectFrom('email_recipients')
            .select('address')
            .where('email_id', '=', email.id)
            .where('type', '=', 'to')
            .orderBy('id')
            .execute()
        ).map((r) => r.address);
  const tags = tagsOf(email?.tags ?? null);
  const data: Record<string, unknown> = {
    email_id: p.emailId,
    created_at: email?.created_at ?? p.timestamp,
    from: email?.from_header ?? '',
    to,
    subject: email?.subject ?? '',
    message_id: email?.message_id ?? '',
    ...(tags ? { tags } : {}),
  };
  if (p.event === 'email.bounced') {
    data.bounce = { message: p.reason ?? '', type: 'Permanent', subType: 'General' };
  }
  if (p.event === 'email.failed') data.failed = { reason: p.reason ?? '' };
  return JSON.stringify({ ...base, data } satisfies ResendEventPayload);
}
