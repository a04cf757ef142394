// A populated account written straight into a database built by the real migrations, in
// multi-row batches (10k messages in seconds, not 10k HTTP sends): messages with their
// recipients and timelines spread over past days, some with attachments, test-mode ones
// with captured mail, quota rows and suppressions. The stats triggers count them as the
// send pipeline's inserts would. Used by the SQLite → PostgreSQL migration test.
import type { Insertable, Kysely } from 'kysely';
import type {
  Database,
  EmailEventsTable,
  EmailRecipientsTable,
  EmailStatus,
  EmailsTable,
} from '../../src/db/schema';
import { minuteOf } from '../../src/modules/quota/quota-limits';
import { newId } from '../../src/shared/ids';

type Db = Kysely<Database>;

export interface PopulateOptions {
  readonly userId: string;
  readonly domainId: string;
  readonly domain: string;
  readonly emails: number;
  /** Messages are spread over this many days before `now` (none in the current hour). */
  readonly days: number;
  readonly now?: Date;
}

export interface Populated {
  readonly emailIds: readonly string[];
  /** Ids of the test-mode messages (captured, not counted by the stats). */
  readonly capturedIds: readonly string[];
}

const BATCH = 400;

function statusOf(i: number): EmailStatus {
  if (i % 50 === 7) return 'bounced';
  if (i % 13 === 5) return 'sent';
  if (i % 97 === 11) return 'queued';
  return 'delivered';
}

function timeline(status: EmailStatus): EmailEventsTable['type'][] {
  if (status === 'queued') return ['queued'];
  const sent: EmailEventsTable['type'][] = ['queued', 'processing', 'sent'];
  return status === 'sent' ? sent : [...sent, status === 'bounced' ? 'bounced' : 'delivered'];
}

/** Inserts `options.emails` messages and what goes with them; returns their ids. */
export async function populateMail(db: Db, options: PopulateOptions): Promise<Populated> {
  const now = options.now ?? new Date();
  const span = options.days * 86_400_000 - 3_600_000;
  const emailIds: string[] = [];
  const capturedIds: string[] = [];
  for (let start = 0; start < options.emails; start += BATCH) {
    const emails: Insertable<EmailsTable>[] = [];
    const recipients: Insertable<EmailRecipientsTable>[] = [];
    const events: Insertable<EmailEventsTable>[] = [];
    const end = Math.min(options.emails, start + BATCH);
    for (let i = start; i < end; i++) {
      const id = newId('email');
      const status = statusOf(i);
      const mode = i % 100 === 3 ? 'test' : 'live';
      // Oldest first, an hour clear of now (the quota of the current hour stays free).
      const at = new Date(now.getTime() - 3_600_000 - span + Math.floor((span * i) / options.emails));
      const createdAt = at.toISOString();
      emailIds.push(id);
      if (mode === 'test') capturedIds.push(id);
      emails.push({
        id,
        user_id: options.userId,
        domain_id: options.domainId,
        api_key_id: null,
        source: i % 11 === 0 ? 'smtp' : 'api',
        from_address: `app@${options.domain}`,
        from_header: `Åpp «Ünïcode» <app@${options.domain}>`,
        subject: `Receipt n° ${i} — ✓ ${'é'.repeat(i % 5)}`,
        reply_to: i % 9 === 0 ? JSON.stringify([`help@${options.domain}`]) : null,
        headers: i % 17 === 0 ? JSON.stringify({ 'X-Order': String(i) }) : null,
        tags: i % 3 === 0 ? JSON.stringify({ kind: i % 2 === 0 ? 'receipt' : 'Reçu' }) : null,
        metadata: i % 4 === 0 ? JSON.stringify({ order: i, nested: { ok: true, n: null } }) : null,
        html: i % 5 === 0 ? null : `<p>Hello ${i}</p>`,
        text: `Hello ${i}\r\n`,
        message_id: `<${id}@${options.domain}>`,
        size_bytes: 200 + i,
        status,
        attempts: status === 'queued' ? 0 : 1 + (i % 3),
        smtp_response:
          status === 'bounced' ? '550 5.1.1 no such user' : status === 'queued' ? null : '250 2.0.0 OK',
        scheduled_at: null,
        created_at: createdAt,
        updated_at: createdAt,
        sent_at: status === 'queued' ? null : createdAt,
        delivered_at: status === 'delivered' ? createdAt : null,
        mode,
        unverified_domain: 0,
      });
      recipients.push({
        id: newId('rcpt'),
        email_id: id,
        user_id: options.userId,
        address: `r${i}@example.org`,
        name: i % 2 === 0 ? `Récipient ${i}` : null,
        type: 'to',
        status,
        smtp_response: null,
        updated_at: createdAt,
      });
      for (const type of timeline(status)) {
        events.push({
          id: newId('evt'),
          email_id: id,
          user_id: options.userId,
          recipient: type === 'queued' ? null : `r${i}@example.org`,
          type,
          message: type === 'bounced' ? '550 5.1.1 no such user' : null,
          created_at: createdAt,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('emails').values(emails).execute();
      await trx.insertInto('email_recipients').values(recipients).execute();
      for (let j = 0; j < events.length; j += BATCH) {
        await trx
          .insertInto('email_events')
          .values(events.slice(j, j + BATCH))
          .execute();
      }
      await insertExtras(trx, options, emails);
    });
  }
  return { emailIds, capturedIds };
}

/** Per batch: attachments (bytes with every value), captured mail, quota rows, a suppression. */
async function insertExtras(
  trx: Db,
  options: PopulateOptions,
  emails: readonly Insertable<EmailsTable>[],
): Promise<void> {
  const every = Buffer.from(Array.from({ length: 256 }, (_, b) => b));
  for (const [k, e] of emails.entries()) {
    if (k % 100 === 1) {
      await trx
        .insertInto('email_attachments')
        .values({
          id: newId('att'),
          email_id: e.id,
          position: 0,
          filename: `facture-${k}.pdf`,
          content_type: 'application/pdf',
          cid: null,
          content: every,
          size_bytes: every.length,
        })
        .execute();
    }
    if (e.mode === 'test') {
      const raw = Buffer.from(`Subject: ${e.subject}\r\n\r\n${e.text ?? ''}`, 'utf8');
      await trx
        .insertInto('captured_messages')
        .values({
          email_id: e.id,
          user_id: options.userId,
          raw,
          size_bytes: raw.length,
          captured_at: e.created_at,
        })
        .execute();
    }
    await trx
      .insertInto('quota_ledger')
      .values({
        id: newId('quo'),
        user_id: options.userId,
        domain_id: options.domainId,
        api_key_id: null,
        email_id: e.id,
        count: 1,
        created_at: e.created_at,
      })
      .execute();
    for (const [scope, scopeId] of [
      ['user', options.userId],
      ['domain', options.domainId],
    ] as const) {
      await trx
        .insertInto('quota_buckets')
        .values({ scope, scope_id: scopeId, minute: minuteOf(Date.parse(e.created_at)), count: 1 })
        .onConflict((oc) =>
          oc
            .columns(['scope', 'scope_id', 'minute'])
            .doUpdateSet((eb) => ({ count: eb('quota_buckets.count', '+', 1) })),
        )
        .execute();
    }
    if (e.status === 'bounced') {
      await trx
        .insertInto('suppressions')
        .values({
          id: newId('sup'),
          user_id: options.userId,
          email: `bounced-${e.id}@example.org`,
          type: 'hard_bounce',
          reason: '550 5.1.1 no such user',
          source_email_id: e.id,
          created_at: e.created_at,
        })
        .execute();
    }
  }
}
