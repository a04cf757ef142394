// The outbound MTA under test (test/integration/mta-outbound, mta-mx-path): a migrated database
// with a VERIFIED domain whose key the domains module made, email rows, the mta process's
// environment, injection as the worker does it, and the outcome jobs the hooks write.
import assert from 'node:assert/strict';
import nodemailer from 'nodemailer';
import type { Db } from '../../src/db/connect';
import { insertUser } from '../../src/modules/accounts/accounts.repository';
import { systemActor } from '../../src/modules/audit/audit.repository';
import { createDomain } from '../../src/modules/domains/domains.usecases';
import type { MtaOutcomePayload } from '../../src/modules/delivery/mta-outcome';
import { verpAddress } from '../../src/mail/verp-address';
import { injectCredential } from '../../src/modules/delivery/inject-credential';
import { newId } from '../../src/shared/ids';
import { createSealer } from '../../src/shared/seal';
import type { FakeDns } from './dns-server';
import { freePorts } from './free-port';
import { createTestDb } from './test-db';
import type { SmtpSink } from './smtp-sink';
import type { MtaProcess } from './mta-process';

export const SECRET_KEY = 'mta-outbound-test-secret-0123456789abcdef';
export const HOSTNAME = 'mx.mailroom-test.net';
export const MAX_BYTES = 200_000;

export interface Fixture {
  readonly db: Db;
  readonly dataDir: string;
  /** DATABASE_URL for the mta process on PostgreSQL; empty on SQLite (DATA_DIR/mail.db). */
  readonly databaseEnv: Record<string, string>;
  readonly userId: string;
  readonly domainId: string;
  readonly domain: string;
}

/** A migrated database with one user and one VERIFIED domain whose key the domains module made. */
export async function prepareDatabase(dnsServer: FakeDns, domain: string): Promise<Fixture> {
  // The test removes dataDir when done; the database (on PostgreSQL) goes with the server.
  const { db, dataDir, url, backend } = await createTestDb();
  const databaseEnv: Record<string, string> = backend === 'postgres' ? { DATABASE_URL: url } : {};
  const now = new Date().toISOString();
  const userId = newId('usr');
  await insertUser(db, {
    id: userId,
    email: `owner-${userId}@example.net`,
    name: 'Owner',
    passwordHash: 'x',
  });
  const view = await createDomain({
    db,
    userId,
    sealer: createSealer({ secretKey: SECRET_KEY }),
    hosts: {
      mailHostname: HOSTNAME,
      mxHost: HOSTNAME,
      bounceHost: `bounce.${HOSTNAME}`,
      spfIncludeHost: `spf.${HOSTNAME}`,
    },
    actor: systemActor,
    input: { domain },
  });
  await db
    .updateTable('domains')
    .set({ status: 'VERIFIED', verified_at: now })
    .where('id', '=', view.id)
    .execute();
  const dkim = view.records.find((r) => r.purpose === 'dkim');
  assert.ok(dkim);
  dnsServer.set(dkim.name, 'TXT', [dkim.value]);
  return { db, dataDir, databaseEnv, userId, domainId: view.id, domain };
}

/** An email row as the API writes it; the MTA reads only its domain. */
export async function insertEmail(f: Fixture, domainId = f.domainId): Promise<string> {
  const id = newId('email');
  const now = new Date().toISOString();
  await f.db
    .insertInto('emails')
    .values({
      id,
      user_id: f.userId,
      domain_id: domainId,
      api_key_id: null,
      source: 'api',
      from_address: `app@${f.domain}`,
      from_header: `Shop <app@${f.domain}>`,
      subject: 'Your receipt',
      reply_to: null,
      headers: null,
      tags: null,
      metadata: null,
      html: null,
      text: 'Thanks',
      message_id: `<${id}@${f.domain}>`,
      size_bytes: 10,
      status: 'processing',
      smtp_response: null,
      scheduled_at: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
      delivered_at: null,
    })
    .execute();
  return id;
}

export async function mtaEnv(
  f: Fixture,
  dnsServer: FakeDns,
  relay: SmtpSink | undefined,
): Promise<Record<string, string>> {
  const [smtp, inject] = (await freePorts(2)) as [number, number];
  return {
    PATH: process.env.PATH ?? '',
    DATA_DIR: f.dataDir,
    ...f.databaseEnv,
    SECRET_KEY,
    SMTP_PORT: String(smtp),
    MTA_INJECT_PORT: String(inject),
    // Haraka's outbound through its injection listener: the deprecated path these tests cover.
    OUTBOUND_SENDER: 'haraka',
    // No submission listener: its default port would be shared by every test's Haraka.
    SUBMISSION_PORT: '0',
    BIND_ADDRESS: '127.0.0.1',
    MAIL_HOSTNAME: HOSTNAME,
    DNS_SERVERS: dnsServer.address,
    EMAIL_MAX_SIZE_BYTES: String(MAX_BYTES),
    MTA_RETRY_INTERVALS: '5,5',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...(relay ? { SMTP_RELAY: relay.address } : {}),
  };
}

export interface Injection {
  readonly emailId: string;
  readonly domain: string;
  readonly to: readonly string[];
  readonly cc?: readonly string[];
  /** Envelope only, as the worker sends Bcc. */
  readonly bcc?: readonly string[];
  readonly auth?: boolean;
}

/** Injects like the worker: nodemailer, AUTH PLAIN with the credential, the untagged VERP sender. */
export async function inject(port: number, m: Injection): Promise<{ response: string }> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    ...(m.auth === false ? {} : { auth: injectCredential(SECRET_KEY), authMethod: 'PLAIN' }),
    logger: false,
  });
  try {
    const info: unknown = await transport.sendMail({
      envelope: {
        from: verpAddress(m.emailId, m.domain),
        to: [...m.to, ...(m.cc ?? []), ...(m.bcc ?? [])],
      },
      from: `Shop <app@${m.domain}>`,
      to: [...m.to],
      cc: [...(m.cc ?? [])],
      subject: 'Your receipt',
      text: 'Thanks for your order.\r\n.A line with a leading dot\r\n',
      html: '<p>Thanks for your order.</p>',
      messageId: `<${m.emailId}@${m.domain}>`,
      date: new Date(),
    });
    return { response: String((info as { response?: unknown }).response) };
  } finally {
    transport.close();
  }
}

export async function outcomes(db: Db, emailId: string): Promise<MtaOutcomePayload[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['payload', 'dedupe_key'])
    .where('queue', '=', 'mta-outcome')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(r.payload) as MtaOutcomePayload).filter((p) => p.emailId === emailId);
}

export async function waitForOutcome(
  db: Db,
  emailId: string,
  match: (p: MtaOutcomePayload) => boolean,
  timeoutMs = 20_000,
): Promise<MtaOutcomePayload> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await outcomes(db, emailId)).find(match);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`no such outcome in time; have ${JSON.stringify(await outcomes(db, emailId))}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function stop(mta: MtaProcess | undefined): Promise<unknown> {
  if (!mta || mta.child.exitCode !== null) return Promise.resolve();
  mta.child.kill('SIGTERM');
  return mta.exited;
}
