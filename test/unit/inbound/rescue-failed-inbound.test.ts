// An inbound job that ended `failed` without its message (here: its worker died on the last
// attempt, so the next claim made it terminal through lease expiry) is stored unparsed by the
// hourly retention run, before finished jobs are pruned; once, and never for a deleted account.
// Real database (SQLite or PostgreSQL), the real MX intake, claim and retention handler.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config';
import type { Db } from '../../../src/db/connect';
import { claim } from '../../../src/jobs/claim';
import { STOPPED_REASON } from '../../../src/modules/inbound/rescue-failed-inbound';
import { rawStoreFor } from '../../../src/modules/inbound/raw-store-of';
import { createRetentionHandler, RETENTION_QUEUE } from '../../../src/modules/retention/retention.jobs';
import { acceptInbound, enqueueIntakeJobs } from '../../../src/mta/inbound-intake';
import { captureLog } from '../../helpers/capture-log';
import { insertAccount } from '../../helpers/email-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const MESSAGE = Buffer.from('From: a@example.org\r\nSubject: lost?\r\n\r\nhello\r\n');

describe('failed inbound jobs are rescued by the retention run', () => {
  let t: TestDb;
  let db: Db;

  before(async () => {
    t = await createTestDb();
    db = t.db;
  });
  after(() => t.close());

  /** Accepts one message for `userId` as the MX does; resolves with its job's id. */
  async function accept(userId: string, domainId: string): Promise<string> {
    await acceptInbound({
      commit: (jobs) => db.transaction().execute((trx) => enqueueIntakeJobs(trx, jobs)),
      store: rawStoreFor(db, t.dataDir),
      message: () => Readable.from([MESSAGE]),
      envelope: {
        mailFrom: 'a@example.org',
        remoteIp: '192.0.2.1',
        helo: 'h',
        receivedAt: new Date().toISOString(),
      },
      recipients: [{ address: 'in@inbox.example.com', route: { kind: 'receive', domainId, userId } }],
    });
    const job = await db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', 'inbound-processing')
      .where('state', '=', 'queued')
      .executeTakeFirstOrThrow();
    return job.id;
  }

  /** Claims the job on its last attempt, lets the lease run out, and claims again: it ends failed. */
  async function dieOnLastAttempt(jobId: string): Promise<void> {
    await db.updateTable('jobs').set({ max_attempts: 1 }).where('id', '=', jobId).execute();
    const now = new Date();
    const first = await claim(db, {
      queues: ['inbound-processing'],
      owner: 'w1',
      leaseMs: 1_000,
      limit: 1,
      now,
    });
    assert.deepEqual(
      first.jobs.map((j) => j.id),
      [jobId],
    );
    const later = new Date(now.getTime() + 5_000);
    const second = await claim(db, {
      queues: ['inbound-processing'],
      owner: 'w2',
      leaseMs: 1_000,
      limit: 1,
      now: later,
    });
    assert.deepEqual(
      second.dead.map((d) => d.id),
      [jobId],
      'the claim made it terminal',
    );
    const row = await db.selectFrom('jobs').select('state').where('id', '=', jobId).executeTakeFirstOrThrow();
    assert.equal(row.state, 'failed');
  }

  async function runRetention(): Promise<string[]> {
    const log = captureLog({ level: 'info' });
    const { config } = loadConfig({ DATA_DIR: t.dataDir, DATABASE_URL: t.url, SECRET_KEY: 'x'.repeat(40) });
    const handler = createRetentionHandler({ db, config });
    await handler(
      { id: 'job_r', queue: RETENTION_QUEUE, payload: { slot: 'x' }, attempts: 1, maxAttempts: 3 },
      { signal: new AbortController().signal, logger: log.logger },
    );
    return log.lines.map((l) => JSON.stringify(l));
  }

  it('stores the message unparsed with its envelope and raw reference, and announces it, once', async () => {
    const account = await insertAccount(db);
    const jobId = await accept(account.userId, account.domainId);
    await dieOnLastAttempt(jobId);

    const lines = await runRetention();
    const rows = await db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('user_id', '=', account.userId)
      .execute();
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.unparsed_reason, STOPPED_REASON);
    assert.equal(row.mail_from, 'a@example.org');
    assert.equal(row.size, MESSAGE.length);
    const raw = await rawStoreFor(db, t.dataDir).get(row.raw_path);
    assert.ok(raw?.equals(MESSAGE), 'the raw bytes are reachable from the row');
    const outbox = await db.selectFrom('outbox').select('payload').where('email_id', '=', row.id).execute();
    assert.equal(outbox.length, 1);
    assert.equal((JSON.parse(outbox[0]!.payload) as { unparsed: boolean }).unparsed, true);
    assert.ok(lines.some((l) => l.includes('inbound_unparsed')));

    await runRetention();
    const again = await db
      .selectFrom('inbound_messages')
      .select('id')
      .where('user_id', '=', account.userId)
      .execute();
    assert.equal(again.length, 1, 'a second run stores nothing more');
  });

  it('an account deleted meanwhile: nothing is stored', async () => {
    const account = await insertAccount(db);
    const jobId = await accept(account.userId, account.domainId);
    await dieOnLastAttempt(jobId);
    await db.deleteFrom('domains').where('user_id', '=', account.userId).execute();
    await db.deleteFrom('users').where('id', '=', account.userId).execute();
    await runRetention();
    const rows = await db
      .selectFrom('inbound_messages')
      .select('id')
      .where('user_id', '=', account.userId)
      .execute();
    assert.equal(rows.length, 0);
  });
});
