// Shared pieces of the delivery tests: a real migrated SQLite database with rows
// written directly (user, domain, message), a captured JSON log, and an SMTP peer
// standing in for Haraka's injection listener (AUTH PLAIN with the internal credential).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerDataStream } from 'smtp-server';
import type { Db } from '../../src/db/connect';
import { migrate, openDb } from '../../src/db/connect';
import type { DomainStatus, EmailStatus, RecipientType } from '../../src/db/schema';
import { injectCredential } from '../../src/modules/delivery/inject-credential';
import type { HandlerJob, JobContext } from '../../src/jobs/job-handler';
import type { Logger } from '../../src/shared/logger';
import { createLogger } from '../../src/shared/logger';
import { newId } from '../../src/shared/ids';

export const SECRET_KEY = 'delivery-test-secret-key-0123456789abcdef';

export interface DeliveryDb {
  readonly db: Db;
  close(): Promise<void>;
}

export async function createDeliveryDb(): Promise<DeliveryDb> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-delivery-'));
  const db = openDb({ file: path.join(dir, 'mail.db') });
  await migrate(db);
  return {
    db,
    close: async () => {
      await db.destroy();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface CapturedLog {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
  events(name: string): Record<string, unknown>[];
}

export function captureLog(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    process: 'test',
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        cb();
      },
    }),
  });
  return { logger, lines, events: (name) => lines.filter((l) => l.event === name) };
}

export function jobContext(log: CapturedLog, signal = new AbortController().signal): JobContext {
  return { signal, logger: log.logger };
}

export function handlerJob(
  queue: HandlerJob['queue'],
  payload: unknown,
  attempts = 1,
  maxAttempts = 10,
): HandlerJob {
  return { id: newId('job'), queue, payload, attempts, maxAttempts };
}

export interface Account {
  readonly userId: string;
  readonly domainId: string;
  readonly domain: string;
}

let counter = 0;

/** A user with one domain (VERIFIED unless told otherwise). */
export async function insertAccount(db: Db, domainStatus: DomainStatus = 'VERIFIED'): Promise<Account> {
  const now = new Date().toISOString();
  const n = ++counter;
  const userId = newId('usr');
  const domainId = newId('dom');
  const domain = `sender${n}.example.com`;
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `owner${n}-${userId}@example.net`,
      name: 'Owner',
      password_hash: 'x',
      status: 'ACTIVE',
      suspended_at: null,
      suspension_reason: null,
      emails_per_hour: null,
      emails_per_day: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('domains')
    .values({
      id: domainId,
      user_id: userId,
      domain,
      status: domainStatus,
      dkim_selector: 'mr1',
      dkim_public_key: 'AAAA',
      dkim_private_key_encrypted: 'sealed',
      receive_enabled: 0,
      inbound_label: 'inbound',
      addresses: '[]',
      restrict_senders: 0,
      verified_at: domainStatus === 'VERIFIED' ? now : null,
      last_checked_at: null,
      next_check_at: null,
      lookup_failures: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { userId, domainId, domain };
}

export interface TestAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly cid?: string;
  readonly content: Buffer;
}

export interface TestEmail {
  readonly to?: readonly string[];
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  readonly html?: string | null;
  readonly text?: string | null;
  readonly headers?: Record<string, string>;
  readonly metadata?: Record<string, unknown>;
  readonly replyTo?: readonly string[];
  readonly attachments?: readonly TestAttachment[];
  readonly status?: EmailStatus;
}

/** A message as the API would have written it: `queued`, recipients `queued`, a `queued` event. */
export async function insertEmail(db: Db, account: Account, e: TestEmail = {}): Promise<string> {
  const now = new Date().toISOString();
  const id = newId('email');
  const status = e.status ?? 'queued';
  await db
    .insertInto('emails')
    .values({
      id,
      user_id: account.userId,
      domain_id: account.domainId,
      api_key_id: null,
      source: 'api',
      from_address: `app@${account.domain}`,
      from_header: `App <app@${account.domain}>`,
      subject: 'Your receipt',
      reply_to: e.replyTo ? JSON.stringify(e.replyTo) : null,
      headers: e.headers ? JSON.stringify(e.headers) : null,
      tags: null,
      metadata: e.metadata ? JSON.stringify(e.metadata) : null,
      html: e.html === undefined ? '<p>Hello</p>' : e.html,
      text: e.text === undefined ? 'Hello' : e.text,
      message_id: `<${id}@${account.domain}>`,
      size_bytes: 100,
      status,
      smtp_response: null,
      scheduled_at: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
      delivered_at: null,
    })
    .execute();
  const recipients: [string, RecipientType][] = [
    ...(e.to ?? ['rcpt@example.org']).map((a): [string, RecipientType] => [a, 'to']),
    ...(e.cc ?? []).map((a): [string, RecipientType] => [a, 'cc']),
    ...(e.bcc ?? []).map((a): [string, RecipientType] => [a, 'bcc']),
  ];
  for (const [address, type] of recipients) {
    await db
      .insertInto('email_recipients')
      .values({
        id: newId('rcpt'),
        email_id: id,
        user_id: account.userId,
        address,
        type,
        status,
        smtp_response: null,
        updated_at: now,
      })
      .execute();
  }
  let position = 0;
  for (const a of e.attachments ?? []) {
    await db
      .insertInto('email_attachments')
      .values({
        id: newId('att'),
        email_id: id,
        position: position++,
        filename: a.filename,
        content_type: a.contentType,
        cid: a.cid ?? null,
        content: a.content,
        size_bytes: a.content.length,
      })
      .execute();
  }
  await db
    .insertInto('email_events')
    .values({
      id: newId('evt'),
      email_id: id,
      user_id: account.userId,
      recipient: null,
      type: 'queued',
      message: 'accepted',
      created_at: now,
    })
    .execute();
  return id;
}

export async function emailRow(db: Db, id: string) {
  return db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function recipientRows(db: Db, id: string) {
  return db.selectFrom('email_recipients').selectAll().where('email_id', '=', id).orderBy('id').execute();
}

export async function eventRows(db: Db, id: string) {
  return db.selectFrom('email_events').selectAll().where('email_id', '=', id).orderBy('id').execute();
}

export async function outboxRows(db: Db, id: string) {
  const rows = await db.selectFrom('outbox').selectAll().where('email_id', '=', id).orderBy('id').execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.payload) as Record<string, unknown> }));
}

export interface InjectedMessage {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  readonly raw: Buffer;
  readonly user: string | undefined;
  /** The 250 line the listener answered with. */
  readonly reply: string;
}

/** What the fake listener answers; undefined accepts. */
export interface InjectScript {
  /** Reply to RCPT TO for an address, e.g. `{ code: 550, message: 'no' }`. */
  rcpt?: (address: string) => { code: number; message: string } | undefined;
  /** Reply at end of DATA instead of 250. */
  data?: () => { code: number; message: string } | undefined;
}

export interface FakeInjectListener {
  readonly port: number;
  readonly messages: InjectedMessage[];
  /** AUTH attempts refused (wrong credential). */
  readonly refusedLogins: number;
  script: InjectScript;
  close(): Promise<void>;
}

function smtpError(reply: { code: number; message: string }): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

/**
 * Haraka's injection listener as the worker sees it: AUTH PLAIN required and
 * checked against the credential derived from SECRET_KEY, no STARTTLS, and a
 * 250 that names a queue id, as Haraka's does.
 */
export async function startFakeInjectListener(secretKey = SECRET_KEY): Promise<FakeInjectListener> {
  const expected = injectCredential(secretKey);
  const messages: InjectedMessage[] = [];
  let refusedLogins = 0;
  let queued = 0;
  const state = { script: {} as InjectScript };
  const server = new SMTPServer({
    name: 'mta.test',
    authMethods: ['PLAIN'],
    allowInsecureAuth: true,
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      if (auth.method === 'PLAIN' && auth.username === expected.user && auth.password === expected.pass) {
        callback(null, { user: auth.username });
        return;
      }
      refusedLogins++;
      callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const reply = state.script.rcpt?.(address.address.toLowerCase());
      callback(reply ? smtpError(reply) : null);
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const reply = state.script.data?.();
        if (reply) {
          callback(smtpError(reply));
          return;
        }
        const { mailFrom, rcptTo } = session.envelope;
        queued++;
        const text = `Message Queued (Q${String(queued).padStart(4, '0')})`;
        messages.push({
          mailFrom: mailFrom === false ? '' : mailFrom.address,
          rcptTo: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          user: typeof session.user === 'string' ? session.user : undefined,
          reply: `250 ${text}`,
        });
        callback(null, text);
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const bound = server.server.address();
  if (bound === null || typeof bound === 'string') throw new Error('fake inject listener: no address');
  return {
    port: bound.port,
    messages,
    get refusedLogins() {
      return refusedLogins;
    },
    get script() {
      return state.script;
    },
    set script(s: InjectScript) {
      state.script = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
