import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { claim } from '../../../src/jobs/claim';
import { fail } from '../../../src/jobs/fail';
import type { RoutedRecipient } from '../../../src/mta/inbound-intake';
import { acceptInbound, enqueueIntakeJobs } from '../../../src/mta/inbound-intake';
import { insertUser } from '../../../src/modules/accounts/accounts.repository';
import { enqueueBounceReport } from '../../../src/mail/bounce-intake';
import { insertInbound } from '../../../src/modules/inbound/inbound.repository';
import { fileRawStore, storeRawMessage } from '../../../src/modules/inbound/raw-file-store';
import { sweepOrphanRawFiles } from '../../../src/modules/retention/orphan-raw-files';
import { runRetention } from '../../../src/modules/retention/retention.jobs';
import { isoNow } from '../../../src/shared/clock';
import { inboundMessageRow } from '../../helpers/email-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MESSAGE = Buffer.from('From: a@example.org\r\nTo: b@inbox.example.com\r\nSubject: hi\r\n\r\nbody\r\n');

describe('retention: orphaned raw inbound files (real database, real files)', () => {
  let t: TestDb;
  let db: Db;
  let dataDir: string;

  const envelope = {
    mailFrom: 'a@example.org',
    remoteIp: '192.0.2.1',
    helo: 'mx.example.org',
    receivedAt: isoNow(),
  };
  const receive: RoutedRecipient = {
    address: 'b@inbox.example.com',
    route: { kind: 'receive', domainId: 'dom_a', userId: 'usr_a' },
  };
  const returnPath: RoutedRecipient = {
    address: 'bounce+email_x@bounce.example.com',
    route: { kind: 'return-path' },
  };

  /** The MX's own intake: raw files fsynced, then their jobs committed (keys `mx:<path>`). */
  const accept = async (recipients: RoutedRecipient[]): Promise<string[]> => {
    await acceptInbound({
      commit: (jobs) => db.transaction().execute((trx) => enqueueIntakeJobs(trx, jobs)),
      store: fileRawStore(dataDir),
      message: () => Readable.from([MESSAGE]),
      envelope,
      recipients,
    });
    const jobs = await db
      .selectFrom('jobs')
      .select('payload')
      .orderBy('id', 'desc')
      .limit(recipients.length)
      .execute();
    return jobs.map((j) => (JSON.parse(j.payload) as { rawPath: string }).rawPath).reverse();
  };
  const store = async (): Promise<string> => (await storeRawMessage(dataDir, MESSAGE)).path;
  const age = async (file: string, ms: number): Promise<void> => {
    const when = new Date(Date.now() - ms);
    await fs.utimes(file, when, when);
  };
  const exists = async (file: string): Promise<boolean> =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  const ownByInboundRow = async (file: string): Promise<void> => {
    const now = isoNow();
    await insertInbound(
      db,
      inboundMessageRow({
        user_id: 'usr_a',
        received_at: now,
        raw_path: file,
        raw_sha256: 'x',
        size: MESSAGE.length,
        mail_from: envelope.mailFrom,
      }),
      [],
    );
  };

  before(async () => {
    // The file store is SQLite's (src/modules/inbound/raw-store-of.ts); PostgreSQL's rows are
    // swept by orphan-raw-rows.ts, tested in test/unit/inbound/raw-store-backends.test.ts.
    t = await createTestDb({ backend: 'sqlite' });
    db = t.db;
    await insertUser(db, { id: 'usr_a', email: 'a@example.com', name: 'a', passwordHash: 'x' });
  });
  after(() => t.close());
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-retention-'));
  });
  afterEach(async () => {
    await db.deleteFrom('jobs').execute();
    await db.deleteFrom('inbound_messages').execute();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('deletes only old files nothing refers to', async () => {
    const [mxBounce, mxInbound] = await accept([returnPath, receive]);
    assert.ok(mxBounce && mxInbound);
    const owned = await store();
    await ownByInboundRow(owned);
    const apiBounce = await store();
    await enqueueBounceReport(db, {
      rawPath: apiBounce,
      sha256: '0'.repeat(64),
      size: MESSAGE.length,
      mailFrom: null,
      rcptTo: [],
      remoteIp: null,
      helo: null,
      receivedAt: isoNow(),
    });
    const orphan = await store();
    const young = await store();
    const dayDir = path.dirname(orphan);
    const tmp = path.join(dayDir, `${'ab'.repeat(16)}.tmp`);
    const foreignName = path.join(dayDir, 'notes.txt');
    await fs.writeFile(tmp, 'partial');
    await fs.writeFile(foreignName, 'not ours');
    for (const f of [mxBounce, mxInbound, owned, apiBounce, orphan, tmp, foreignName]) await age(f, 2 * HOUR);
    await age(young, 30 * 60_000);
    const oldEmptyDay = path.join(dataDir, 'inbound', '2000-01-01');
    await fs.mkdir(oldEmptyDay);

    const result = await sweepOrphanRawFiles({ db, dataDir, now: new Date(), minAgeMs: HOUR });

    assert.deepEqual(result, { deleted: 2, directories: 1, skipped: undefined });
    assert.equal(await exists(orphan), false);
    assert.equal(await exists(tmp), false);
    assert.equal(await exists(oldEmptyDay), false);
    for (const kept of [mxBounce, mxInbound, owned, apiBounce, young, foreignName, dayDir]) {
      assert.equal(await exists(kept), true, kept);
    }
  });

  it("keeps a failed job's file as long as the job, then sweeps it with the job (runRetention)", async () => {
    const [raw] = await accept([receive]);
    assert.ok(raw);
    const { jobs } = await claim(db, {
      queues: ['inbound-processing'],
      owner: 'w1',
      leaseMs: 60_000,
      limit: 1,
    });
    assert.ok(jobs[0]);
    await fail(db, jobs[0], 'w1', new Error('parse failed'), { retryable: false });
    const config = {
      dataDir,
      retentionSucceededJobsDays: 7,
      retentionFailedJobsDays: 30,
      retentionWebhookEventsDays: 7,
      captureRetentionDays: 7,
    };

    let summary = await runRetention({ db, config, now: new Date(Date.now() + 8 * DAY), pauseMs: 0 });
    assert.equal(summary.rows.failedJobs, 0);
    assert.equal(summary.orphans.deleted, 0);
    assert.equal(await exists(raw), true);

    summary = await runRetention({ db, config, now: new Date(Date.now() + 31 * DAY), pauseMs: 0 });
    assert.equal(summary.rows.failedJobs, 1);
    assert.equal(summary.orphans.deleted, 1);
    assert.equal(await exists(raw), false);
  });

  it('deletes nothing when the database names raw files outside DATA_DIR/inbound (a moved DATA_DIR)', async () => {
    const orphan = await store();
    await age(orphan, 2 * HOUR);
    await ownByInboundRow('/srv/old-data/inbound/2024-01-01/0123456789abcdef0123456789abcdef.eml');

    const result = await sweepOrphanRawFiles({ db, dataDir, now: new Date(), minAgeMs: HOUR });

    assert.equal(result.deleted, 0);
    assert.deepEqual(result.skipped, {
      reason: 'foreign_raw_path',
      path: '/srv/old-data/inbound/2024-01-01/0123456789abcdef0123456789abcdef.eml',
    });
    assert.equal(await exists(orphan), true);
  });

  it('copes with no inbound directory at all', async () => {
    const result = await sweepOrphanRawFiles({ db, dataDir, now: new Date(), minAgeMs: HOUR });
    assert.deepEqual(result, { deleted: 0, directories: 0, skipped: undefined });
  });
});
