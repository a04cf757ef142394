import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import type { MtaOutcomePayload } from '../../src/modules/delivery/mta-outcome';
import { createMtaOutcomeHandler, EARLY_REPORT_RETRIES } from '../../src/modules/delivery/outcome-job';
import type { JobHandler } from '../../src/jobs/job-handler';
import { isPermanentJobError } from '../../src/jobs/job-handler';
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
import { handlerJob, jobContext } from '../helpers/job-context';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';

type Report = Pick<MtaOutcomePayload, 'recipient' | 'outcome'> & Partial<MtaOutcomePayload>;

const REPLIES: Record<MtaOutcomePayload['outcome'], [number, string, string]> = {
  delivered: [250, '2.0.0', '250 2.0.0 OK queued as 7F3A'],
  deferred: [451, '4.7.1', '451 4.7.1 Greylisted, try again later'],
  bounced: [550, '5.1.1', '550 5.1.1 <x>: Recipient address rejected: User unknown'],
  failed: [451, '4.4.7', 'Too many retries: 451 4.7.1 Greylisted, try again later'],
};

describe('mta-outcome handler: per-recipient status machine and aggregate (real SQLite)', () => {
  let t: TestDb;
  let db: Db;
  let account: Account;
  let log: CapturedLog;
  const handle: { fn?: JobHandler } = {};

  before(async () => {
    t = await createTestDb();
    db = t.db;
    account = await insertAccount(db);
    handle.fn = createMtaOutcomeHandler({ db });
  });
  after(async () => {
    await t.close();
  });
  beforeEach(() => {
    log = captureLog();
  });

  function payload(emailId: string, r: Report): MtaOutcomePayload {
    const [code, enhanced, response] = REPLIES[r.outcome];
    return {
      emailId,
      smtpCode: code,
      enhancedStatus: enhanced,
      response,
      attempt: 1,
      host: 'mx.example.org',
      at: new Date().toISOString(),
      ...r,
    };
  }

  async function report(emailId: string, r: Report, jobAttempts = 1): Promise<void> {
    await handle.fn!(handlerJob('mta-outcome', payload(emailId, r), jobAttempts), jobContext(log));
  }

  async function sentEmail(to: string[]): Promise<string> {
    return insertEmail(db, account, { to, status: 'sent' });
  }

  it('deferred twice, then delivered: delivered, with each deferral on the timeline', async () => {
    const id = await sentEmail(['slow@example.org']);
    await report(id, { recipient: 'slow@example.org', outcome: 'deferred', attempt: 1 });
    assert.equal((await emailRow(db, id)).status, 'deferred');
    await report(id, { recipient: 'slow@example.org', outcome: 'deferred', attempt: 2 });
    const at = '2030-01-02T03:04:05.000Z';
    await report(id, { recipient: 'slow@example.org', outcome: 'delivered', attempt: 3, at });

    const email = await emailRow(db, id);
    assert.equal(email.status, 'delivered');
    assert.equal(email.delivered_at, at);
    assert.equal(email.smtp_response, '250 2.0.0 OK queued as 7F3A');
    const [r] = await recipientRows(db, id);
    assert.deepEqual([r!.status, r!.smtp_response], ['delivered', '250 2.0.0 OK queued as 7F3A']);
    assert.deepEqual(
      (await eventRows(db, id)).slice(1).map((e) => [e.type, e.recipient, e.message]),
      [
        ['deferred', 'slow@example.org', 'attempt 1: 451 4.7.1 Greylisted, try again later'],
        ['deferred', 'slow@example.org', 'attempt 2: 451 4.7.1 Greylisted, try again later'],
        ['delivered', 'slow@example.org', '250 2.0.0 OK queued as 7F3A'],
      ],
    );
    assert.deepEqual(
      (await outboxRows(db, id)).map((o) => [o.event, o.recipient]),
      [['email.delivered', 'slow@example.org']],
    );
    assert.equal(log.events('email_deferred').length, 2);
    assert.equal(log.events('email_delivered').length, 1);
  });

  it('one bounce among four deliveries: the message is bounced, the others delivered', async () => {
    const to = ['a@example.org', 'b@example.org', 'c@example.org', 'd@example.org'];
    const id = await sentEmail(to);
    await report(id, { recipient: 'c@example.org', outcome: 'bounced' });
    // Others still in flight: the message must not look finished yet.
    assert.equal((await emailRow(db, id)).status, 'sent');
    for (const r of ['a@example.org', 'b@example.org', 'd@example.org']) {
      await report(id, { recipient: r, outcome: 'delivered' });
    }
    const email = await emailRow(db, id);
    assert.equal(email.status, 'bounced');
    assert.equal(email.smtp_response, '550 5.1.1 <x>: Recipient address rejected: User unknown');
    assert.ok(email.delivered_at, 'deliveredAt: the first delivery');
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => [r.address, r.status]),
      [
        ['a@example.org', 'delivered'],
        ['b@example.org', 'delivered'],
        ['c@example.org', 'bounced'],
        ['d@example.org', 'delivered'],
      ],
    );
    const outbox = await outboxRows(db, id);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.recipient]),
      [
        ['email.bounced', 'c@example.org'],
        ['email.delivered', 'a@example.org'],
        ['email.delivered', 'b@example.org'],
        ['email.delivered', 'd@example.org'],
      ],
    );
    assert.deepEqual(
      { reason: outbox[0]!.data.reason, statusCode: outbox[0]!.data.statusCode },
      { reason: '550 5.1.1 <x>: Recipient address rejected: User unknown', statusCode: 550 },
    );
    assert.equal(outbox[1]!.data.reason, undefined);
    const permanent = log.events('email_failed_permanent');
    assert.equal(permanent.length, 1);
    assert.equal(permanent[0]!.recipient, 'c@example.org');
  });

  it('always deferred, then the MTA gives up: failed, email.failed with reason and code', async () => {
    const id = await sentEmail(['never@example.org']);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await report(id, { recipient: 'never@example.org', outcome: 'deferred', attempt });
    }
    await report(id, { recipient: 'never@example.org', outcome: 'failed', attempt: 4 });
    const email = await emailRow(db, id);
    assert.equal(email.status, 'failed');
    assert.equal(email.delivered_at, null);
    assert.equal(email.smtp_response, '451 4.4.7 Too many retries: 451 4.7.1 Greylisted, try again later');
    const outbox = await outboxRows(db, id);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.data.statusCode, o.data.reason]),
      [['email.failed', 451, '451 4.4.7 Too many retries: 451 4.7.1 Greylisted, try again later']],
    );
    assert.equal(log.events('email_failed_exhausted').length, 1);
    assert.deepEqual(
      (await eventRows(db, id)).slice(1).map((e) => e.type),
      ['deferred', 'deferred', 'deferred', 'failed'],
    );
  });

  it('applying the same report twice changes nothing the second time', async () => {
    const id = await sentEmail(['twice@example.org', 'other@example.org']);
    const deferral = { recipient: 'twice@example.org', outcome: 'deferred', attempt: 1 } as const;
    await report(id, deferral);
    await report(id, deferral);
    await report(id, { recipient: 'twice@example.org', outcome: 'delivered', attempt: 2 });
    const snapshot = async () => ({
      email: await emailRow(db, id),
      recipients: await recipientRows(db, id),
      events: await eventRows(db, id),
      outbox: await outboxRows(db, id),
    });
    const first = await snapshot();
    await report(id, { recipient: 'twice@example.org', outcome: 'delivered', attempt: 2 });
    assert.deepEqual(await snapshot(), first);
    assert.deepEqual(
      first.events.slice(1).map((e) => e.type),
      ['deferred', 'delivered'],
    );
    assert.equal(first.email.status, 'sent');
    assert.equal(log.events('mta_outcome_ignored').length, 2);
  });

  it('a deferral arriving after delivery is ignored (no event, status kept)', async () => {
    const id = await sentEmail(['late@example.org']);
    await report(id, { recipient: 'late@example.org', outcome: 'delivered', attempt: 2 });
    await report(id, { recipient: 'late@example.org', outcome: 'deferred', attempt: 1 });
    await report(id, { recipient: 'late@example.org', outcome: 'bounced', attempt: 1 });
    assert.equal((await emailRow(db, id)).status, 'delivered');
    assert.deepEqual(
      (await eventRows(db, id)).slice(1).map((e) => e.type),
      ['delivered'],
    );
    assert.deepEqual(
      log.events('mta_outcome_ignored').map((l) => l.reason),
      ['late', 'late'],
    );
  });

  it('a report that overtakes the worker`s sent commit is retried, then applied anyway', async () => {
    const id = await insertEmail(db, account, { to: ['fast@example.org'], status: 'processing' });
    for (let attempt = 1; attempt <= EARLY_REPORT_RETRIES; attempt++) {
      await assert.rejects(
        report(id, { recipient: 'fast@example.org', outcome: 'delivered' }, attempt),
        (e: unknown) => !isPermanentJobError(e),
      );
      assert.equal((await recipientRows(db, id))[0]!.status, 'processing');
    }
    await report(id, { recipient: 'fast@example.org', outcome: 'delivered' }, EARLY_REPORT_RETRIES + 1);
    assert.equal((await recipientRows(db, id))[0]!.status, 'delivered');
    assert.equal((await emailRow(db, id)).status, 'delivered');
  });

  it('a report for an unknown message or recipient completes with a log line', async () => {
    const id = await sentEmail(['known@example.org']);
    await report('email_00000000000000000000000000', { recipient: 'x@example.org', outcome: 'delivered' });
    await report(id, { recipient: 'stranger@example.org', outcome: 'delivered' });
    assert.equal(log.events('mta_outcome_unmatched').length, 2);
    assert.equal((await emailRow(db, id)).status, 'sent');
  });

  it('a payload that does not parse is a permanent failure', async () => {
    await assert.rejects(
      handle.fn!(handlerJob('mta-outcome', { emailId: 'x', outcome: 'exploded' }), jobContext(log)),
      isPermanentJobError,
    );
  });
});
