// Governance reads must stay index-backed at a million emails: each query the
// statistics, abuse, metrics and branding code issues is run through SQLite's
// EXPLAIN QUERY PLAN on a database built by the real migrations (no ANALYZE, as in
// production), and no large table may be scanned. Timings are in docs/operations.md.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CompiledQuery } from 'kysely';
import { Kysely, SqliteDialect } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { migrate, openSqlite } from '../../../src/db/connect';
import type { Database } from '../../../src/db/schema';
import { oldestQueuedAgeMs, queueDepths, queueWaits } from '../../../src/jobs/queue-stats';
import * as abuse from '../../../src/modules/abuse/abuse.repository';
import { stopQueuedEmails } from '../../../src/modules/accounts/suspension.repository';
import { findBranding, findPublicLogo } from '../../../src/modules/branding/branding.repository';
import { accountUsage } from '../../../src/modules/quota/quota';
import { dailyCounts, emailsCreatedSince } from '../../../src/modules/stats/stats.repository';
import { countFailedAttemptsSince } from '../../../src/modules/webhooks/webhooks.repository';
import { insertAccount, insertEmail } from '../../helpers/email-fixtures';

/** Tables that grow with mail; `users` and `account_branding` have a row per account and may be scanned. */
const LARGE = [
  'emails',
  'email_recipients',
  'email_events',
  'quota_ledger',
  'email_daily_counts',
  'jobs',
  'webhook_attempts',
  'audit_log',
  'outbox',
];

describe('query plans of the governance reads', () => {
  let dir: string;
  let sqlite: BetterSqlite3.Database;
  let db: Kysely<Database>;
  let captured: CompiledQuery[] = [];

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-plans-'));
    sqlite = openSqlite(path.join(dir, 'mail.db'));
    db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === 'query') captured.push(event.query);
      },
    });
    await migrate(db);
  });
  after(async () => {
    await db.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  });

  function plan(q: CompiledQuery): string[] {
    return sqlite
      .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
      .all(...(q.parameters as unknown[]))
      .map((row) => (row as { detail: string }).detail);
  }

  it('scans no large table', async () => {
    const account = await insertAccount(db);
    const now = new Date();
    for (let i = 0; i < 20; i++) {
      await insertEmail(db, account, {
        createdAt: new Date(now.getTime() - i * 600_000).toISOString(),
        status: i % 3 === 0 ? 'queued' : 'delivered',
      });
    }
    captured = [];
    const since = new Date(now.getTime() - 3_600_000).toISOString();
    await dailyCounts(db, account.userId, '2024-01-01');
    await emailsCreatedSince(db, since);
    await abuse.signalInputs(db, account.userId, { now, notBefore: since });
    await abuse.accountsWithMailSince(db, since);
    await abuse.lastReinstatedAt(db, account.userId);
    await abuse.findAbuseState(db, account.userId);
    await abuse.pruneFinishedJobs(db, 'abuse-evaluation', since);
    await accountUsage(db, account.userId, { hour: 100, day: 1000 }, now.getTime());
    await queueDepths(db);
    await oldestQueuedAgeMs(db, 'email-send', now);
    await queueWaits(db, now);
    await countFailedAttemptsSince(db, since);
    await findBranding(db, account.userId);
    await findPublicLogo(db, account.userId);
    await db
      .transaction()
      .execute((trx) =>
        stopQueuedEmails(trx, { userId: account.userId, reason: 'test', at: now.toISOString() }),
      );

    const reads = captured.filter((q) => !/^\s*(insert|begin|commit|rollback)/i.test(q.sql));
    assert.ok(reads.length >= 15, `captured ${reads.length} queries`);
    const scans: string[] = [];
    for (const q of reads) {
      const details = plan(q);
      for (const d of details) {
        const m = /^SCAN (\w+)/.exec(d);
        if (m && LARGE.includes(m[1]!)) scans.push(`${d}\n    in: ${q.sql}`);
      }
    }
    assert.deepEqual(scans, []);
  });

  it('the overview and the last-hour metric are answered from covering indexes', async () => {
    captured = [];
    await dailyCounts(db, 'usr_x', '2024-01-01');
    await emailsCreatedSince(db, new Date().toISOString());
    const [daily, lastHour] = captured.map(plan);
    assert.match(
      daily!.join('\n'),
      /SEARCH email_daily_counts USING (COVERING )?INDEX .*\(user_id=\? AND day>\?\)/,
    );
    assert.match(
      lastHour!.join('\n'),
      /SEARCH emails USING COVERING INDEX emails_created_live \(created_at>\?\)/,
    );
  });
});
