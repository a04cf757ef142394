import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import type { MtaOutcomePayload } from '../../src/modules/delivery/mta-outcome';
import { MTA_OUTCOME_QUEUE } from '../../src/modules/delivery/mta-outcome';
import { outcomeDedupeKey, outcomeRecorder } from '../../src/mta/outcome-jobs';
import type { CapturedLog } from '../helpers/capture-log';
import { captureLog } from '../helpers/capture-log';
import type { Account } from '../helpers/email-fixtures';
import {
  emailRow,
  eventRows,
  insertAccount,
  insertEmail,
  outboxRows,
  recipientRows,
} from '../helpers/email-fixtures';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';

function delivered(emailId: string, recipient: string): MtaOutcomePayload {
  return {
    emailId,
    recipient,
    outcome: 'delivered',
    smtpCode: 250,
    enhancedStatus: null,
    response: '250 2.0.0 OK queued as 7F3A',
    attempt: 1,
    host: 'mx.example.org',
    at: '2030-01-02T03:04:05.000Z',
  };
}

describe("the MTA's outcome writer applies reports in the commit that records them (real SQLite)", () => {
  let t: TestDb;
  let db: Db;
  let account: Account;
  let log: CapturedLog;

  before(async () => {
    t = await createTestDb();
    db = t.db;
    account = await insertAccount(db);
  });
  after(async () => {
    await t.close();
  });
  beforeEach(() => {
    log = captureLog();
  });

  async function outcomeJobs(emailId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('jobs')
      .select('dedupe_key')
      .where('queue', '=', MTA_OUTCOME_QUEUE)
      .where('dedupe_key', 'like', `${emailId}:%`)
      .execute();
    return rows.map((r) => r.dedupe_key ?? '');
  }

  it('a report for a handed-off recipient is applied at once: status, timeline, webhook row, no job', async () => {
    const record = outcomeRecorder(db, { apply: { logger: log.logger } });
    const id = await insertEmail(db, account, { to: ['a@example.org'], status: 'sent' });
    assert.equal(await record([delivered(id, 'a@example.org')]), 1);
    const email = await emailRow(db, id);
    assert.equal(email.status, 'delivered');
    assert.equal(email.delivered_at, '2030-01-02T03:04:05.000Z');
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => r.status),
      ['delivered'],
    );
    assert.ok((await eventRows(db, id)).some((e) => e.type === 'delivered'));
    assert.deepEqual(
      (await outboxRows(db, id)).map((o) => o.event),
      ['email.delivered'],
    );
    assert.deepEqual(await outcomeJobs(id), [], 'nothing left for the worker');
    assert.ok(log.lines.some((l) => l.event === 'email_delivered' && l.emailId === id));

    // A replayed hook (Haraka crashed before unlinking the queue file) changes nothing.
    assert.equal(await record([delivered(id, 'a@example.org')]), 0);
    assert.equal((await outboxRows(db, id)).length, 1);
    assert.deepEqual(await outcomeJobs(id), []);
  });

  it('a report that overtook the hand-off record, or names no known message, is left to a job', async () => {
    const record = outcomeRecorder(db, { apply: { logger: log.logger } });
    const early = await insertEmail(db, account, { to: ['b@example.org'], status: 'processing' });
    const unknown = 'email_0000000000000000000000000z';
    const payloads = [delivered(early, 'b@example.org'), delivered(unknown, 'c@example.org')];
    assert.equal(await record(payloads), 2);
    assert.equal((await emailRow(db, early)).status, 'processing', 'not applied before `sent`');
    assert.deepEqual(await outcomeJobs(early), [outcomeDedupeKey(payloads[0]!)]);
    assert.deepEqual(await outcomeJobs(unknown), [outcomeDedupeKey(payloads[1]!)]);
    assert.equal(await record(payloads), 0, 'a replay finds both jobs there');
  });
});
