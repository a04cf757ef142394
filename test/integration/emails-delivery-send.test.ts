import os from 'node:os';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Db } from '../../src/db/connect';
import { applyMtaOutcome } from '../../src/modules/delivery/outcome-job';
import { stopQueuedEmails } from '../../src/modules/accounts/suspension.repository';
import { isoNow } from '../../src/shared/clock';
import {
  EMAIL_SEND_ATTEMPT_BUDGET,
  EMAIL_SEND_MAX_ATTEMPTS,
  STAGED_RETRY_DELAYS_MS,
  attemptBudget,
  createEmailSendHandler,
  createStagedSendHandler,
  emailSendJob,
} from '../../src/modules/delivery/send-job';
import type { JobHandler } from '../../src/jobs/job-handler';
import { isPermanentJobError } from '../../src/jobs/job-handler';
import { enqueue } from '../../src/jobs/enqueue';
import { freePort } from '../helpers/free-port';
import type { CapturedLog } from '../helpers/capture-log';
import { captureLog } from '../helpers/capture-log';
import {
  emailRow,
  eventRows,
  insertAccount,
  insertEmail,
  outboxRows,
  recipientRows,
} from '../helpers/email-fixtures';
import type { FakeInjectListener } from '../helpers/fake-inject-listener';
import { SECRET_KEY, startFakeInjectListener } from '../helpers/fake-inject-listener';
import { handlerJob, jobContext } from '../helpers/job-context';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';

const config = (injectPort: number, secretKey = SECRET_KEY) => ({
  injectPort,
  secretKey,
  mailHostname: 'worker.mailroom.test',
  baseUrl: 'http://localhost:3000',
  dataDir: os.tmpdir(),
});

describe('email-send handler (real SQLite, fake injection listener)', () => {
  let t: TestDb;
  let db: Db;
  let mta: FakeInjectListener;
  let log: CapturedLog;
  let send: JobHandler;
  let deadPort: number;

  before(async () => {
    t = await createTestDb();
    db = t.db;
    mta = await startFakeInjectListener();
    send = createEmailSendHandler({ db, config: config(mta.port) });
    deadPort = await freePort();
  });
  after(async () => {
    await mta.close();
    await t.close();
  });
  beforeEach(() => {
    mta.messages.length = 0;
    mta.script = {};
    log = captureLog();
  });

  const run = (handler: JobHandler, emailId: string, attempts = 1) =>
    handler(handlerJob('email-send', { emailId }, attempts), jobContext(log));

  it('hands the message to the MTA with the VERP sender and every recipient, and records sent', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account, {
      to: ['ann@example.org'],
      cc: ['carl@example.org'],
      bcc: ['hidden@example.org'],
      metadata: { orderId: 'secret-order-42' },
      headers: { 'X-Campaign': 'spring' },
    });
    await run(send, id);

    assert.equal(mta.messages.length, 1);
    const msg = mta.messages[0]!;
    // Spec, domains rule 5: no tag, nothing but the email id.
    assert.equal(msg.mailFrom, `bounce+${id}@bounce.${account.domain}`);
    assert.deepEqual(msg.rcptTo.sort(), ['ann@example.org', 'carl@example.org', 'hidden@example.org']);
    assert.equal(msg.user, 'mailroom-worker');
    const parsed = await simpleParser(msg.raw);
    assert.equal(parsed.messageId, `<${id}@${account.domain}>`);
    assert.equal(parsed.headers.get('x-campaign'), 'spring');
    assert.equal(parsed.headers.has('bcc'), false);
    assert.ok(!msg.raw.toString('latin1').includes('hidden@example.org'), 'Bcc address in the message');
    assert.ok(!msg.raw.toString('latin1').includes('secret-order-42'), 'metadata in the message');

    const email = await emailRow(db, id);
    assert.equal(email.status, 'sent');
    assert.equal(email.attempts, 1);
    assert.match(msg.reply, /^250 Message Queued \(Q\d{4}\)$/);
    assert.equal(email.smtp_response, msg.reply);
    assert.ok(email.sent_at);
    const recipients = await recipientRows(db, id);
    assert.deepEqual(
      recipients.map((r) => [r.address, r.status, r.smtp_response]),
      [
        ['ann@example.org', 'sent', msg.reply],
        ['carl@example.org', 'sent', msg.reply],
        ['hidden@example.org', 'sent', msg.reply],
      ],
    );
    const events = await eventRows(db, id);
    assert.deepEqual(
      events.map((e) => [e.type, e.message]),
      [
        ['queued', 'accepted'],
        ['processing', 'attempt 1'],
        ['sent', msg.reply],
      ],
    );
    const outbox = await outboxRows(db, id);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.recipient]),
      [
        ['email.sent', 'ann@example.org'],
        ['email.sent', 'carl@example.org'],
        ['email.sent', 'hidden@example.org'],
      ],
    );
    assert.equal(outbox[0]!.data.emailId, id);
    const sent = log.events('email_sent');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.emailId, id);
  });

  it('does nothing when the job runs again after the message was sent', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account);
    await run(send, id);
    const before = { events: (await eventRows(db, id)).length, outbox: (await outboxRows(db, id)).length };
    await run(send, id, 2);
    assert.equal(mta.messages.length, 1);
    assert.equal((await eventRows(db, id)).length, before.events);
    assert.equal((await outboxRows(db, id)).length, before.outbox);
    assert.equal((await emailRow(db, id)).attempts, 1);
    assert.equal(log.events('email_send_skipped').length, 1);
  });

  it('stops the message of a suspended account: failed, event stopped, email.failed, nothing sent', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account, { to: ['a@example.org', 'b@example.org'] });
    await db.updateTable('users').set({ status: 'SUSPENDED' }).where('id', '=', account.userId).execute();
    await run(send, id);

    assert.equal(mta.messages.length, 0);
    const email = await emailRow(db, id);
    assert.equal(email.status, 'failed');
    assert.equal(email.attempts, 0);
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => r.status),
      ['failed', 'failed'],
    );
    const last = (await eventRows(db, id)).at(-1)!;
    assert.deepEqual([last.type, last.message], ['stopped', 'account suspended']);
    const outbox = await outboxRows(db, id);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.recipient, o.data.reason, o.data.statusCode]),
      [
        ['email.failed', 'a@example.org', 'account suspended', null],
        ['email.failed', 'b@example.org', 'account suspended', null],
      ],
    );
    assert.equal(log.events('email_stopped')[0]?.reason, 'account suspended');
  });

  it('stops the message when its domain is no longer verified', async () => {
    const account = await insertAccount(db, { domainStatus: 'FAILED' });
    const id = await insertEmail(db, account);
    await run(send, id);
    assert.equal(mta.messages.length, 0);
    assert.equal((await emailRow(db, id)).status, 'failed');
    const last = (await eventRows(db, id)).at(-1)!;
    assert.deepEqual([last.type, last.message], ['stopped', 'domain not verified']);
    assert.equal((await outboxRows(db, id))[0]?.data.reason, 'domain not verified');
  });

  it('account suspension (stopQueuedEmails) stops a queued message the same way, and nothing else', async () => {
    const account = await insertAccount(db);
    const queued = await insertEmail(db, account);
    const sent = await insertEmail(db, account, { status: 'sent' });
    const stop = (): Promise<number> =>
      db
        .transaction()
        .execute((trx) =>
          stopQueuedEmails(trx, { userId: account.userId, reason: 'account suspended', at: isoNow() }),
        );
    assert.equal(await stop(), 1);
    assert.equal((await emailRow(db, queued)).status, 'failed');
    const last = (await eventRows(db, queued)).at(-1)!;
    assert.deepEqual([last.type, last.message], ['stopped', 'account suspended']);
    assert.equal((await outboxRows(db, queued))[0]?.event, 'email.failed');
    await run(send, queued);
    assert.equal(mta.messages.length, 0);
    assert.equal((await emailRow(db, sent)).status, 'sent');
    assert.equal(await stop(), 0);
  });

  it('skips a cancelled message', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account, { status: 'cancelled' });
    await run(send, id);
    assert.equal(mta.messages.length, 0);
    assert.equal((await emailRow(db, id)).status, 'cancelled');
    assert.equal((await eventRows(db, id)).length, 1);
  });

  it('MTA unreachable: a retryable error, the message back to queued; the next attempt sends it', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account);
    const down = createEmailSendHandler({ db, config: config(deadPort) });
    const err = await run(down, id).then(
      () => assert.fail('expected a retryable error'),
      (e: unknown) => e,
    );
    assert.equal(isPermanentJobError(err), false);
    assert.match(String(err), /ECONNREFUSED|connect/i);
    let email = await emailRow(db, id);
    assert.equal(email.status, 'queued');
    assert.equal(email.attempts, 1);
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => r.status),
      ['queued'],
    );
    const retry = (await eventRows(db, id)).at(-1)!;
    assert.equal(retry.type, 'queued');
    assert.match(retry.message ?? '', /^attempt 1 could not reach the MTA \(.+\); retrying$/);

    await run(send, id, 2);
    email = await emailRow(db, id);
    assert.equal(email.status, 'sent');
    assert.equal(email.attempts, 2);
    assert.deepEqual(
      (await eventRows(db, id)).map((e) => [e.type, e.message?.slice(0, 9)]),
      [
        ['queued', 'accepted'],
        ['processing', 'attempt 1'],
        ['queued', 'attempt 1'],
        ['processing', 'attempt 2'],
        ['sent', '250 Messa'],
      ],
    );
  });

  it('a wrong internal credential is retryable (configuration fault), not a failed message', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account);
    const refusedBefore = mta.refusedLogins;
    const wrong = createEmailSendHandler({
      db,
      config: config(mta.port, 'another-secret-key-0123456789abcdefgh'),
    });
    await assert.rejects(
      run(wrong, id),
      (e: unknown) => !isPermanentJobError(e) && /535|auth/i.test(String(e)),
    );
    assert.equal(mta.refusedLogins, refusedBefore + 1);
    assert.equal((await emailRow(db, id)).status, 'queued');
  });

  it('attempt budget spent: parked on email-send:failed, slow retries, then failed for good', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account, { to: ['x@example.org', 'y@example.org'] });
    const down = createEmailSendHandler({ db, config: config(deadPort) });
    const staged = createStagedSendHandler({ db, config: config(deadPort) });

    const t0 = Date.now();
    await run(down, id, EMAIL_SEND_ATTEMPT_BUDGET); // resolves: the job completes, the message is parked
    assert.equal((await emailRow(db, id)).status, 'queued');
    const jobs = async () =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('queue', '=', 'email-send:failed')
        .where('payload', 'like', `%${id}%`)
        .orderBy('run_at')
        .execute();
    let parked = await jobs();
    assert.equal(parked.length, 1);
    assert.deepEqual(JSON.parse(parked[0]!.payload), { emailId: id, stage: 1 });
    const delay = Date.parse(parked[0]!.run_at) - t0;
    assert.ok(
      delay >= STAGED_RETRY_DELAYS_MS[0]! && delay < STAGED_RETRY_DELAYS_MS[0]! + 5_000,
      `delay ${delay}`,
    );
    assert.equal(log.events('email_staged_retry').length, 1);
    assert.match((await eventRows(db, id)).at(-1)!.message ?? '', /parked until /);

    for (let stage = 1; stage < STAGED_RETRY_DELAYS_MS.length; stage++) {
      await staged(handlerJob('email-send:failed', { emailId: id, stage }), jobContext(log));
      parked = await jobs();
      assert.equal(parked.length, stage + 1);
      assert.deepEqual(JSON.parse(parked.at(-1)!.payload), { emailId: id, stage: stage + 1 });
      assert.equal((await emailRow(db, id)).status, 'queued');
    }
    const last = STAGED_RETRY_DELAYS_MS.length;
    await staged(handlerJob('email-send:failed', { emailId: id, stage: last }), jobContext(log));

    const email = await emailRow(db, id);
    assert.equal(email.status, 'failed');
    assert.equal(email.attempts, 1 + last);
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => r.status),
      ['failed', 'failed'],
    );
    const final = (await eventRows(db, id)).at(-1)!;
    assert.equal(final.type, 'failed');
    assert.match(final.message ?? '', new RegExp(`^gave up after ${1 + last} attempts: `));
    const outbox = await outboxRows(db, id);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.recipient, o.data.statusCode]),
      [
        ['email.failed', 'x@example.org', null],
        ['email.failed', 'y@example.org', null],
      ],
    );
    assert.match(String(outbox[0]!.data.reason), /ECONNREFUSED|connect/i);
    assert.equal(log.events('email_failed_exhausted').length, 1);
    assert.equal(log.events('email_staged_retry').length, last);
  });

  it('a job enqueued with fewer attempts parks the message before it runs out', async () => {
    assert.equal(attemptBudget(EMAIL_SEND_MAX_ATTEMPTS), EMAIL_SEND_ATTEMPT_BUDGET);
    assert.equal(attemptBudget(undefined), EMAIL_SEND_ATTEMPT_BUDGET);
    assert.equal(attemptBudget(5), 3);
    assert.equal(attemptBudget(1), 1);
    const account = await insertAccount(db);
    const id = await insertEmail(db, account);
    const { id: jobId } = await enqueue(db, {
      queue: 'email-send',
      payload: { emailId: id },
      maxAttempts: 5,
    });
    const down = createEmailSendHandler({ db, config: config(deadPort) });
    const job = { id: jobId, queue: 'email-send' as const, payload: { emailId: id }, maxAttempts: 5 };
    await assert.rejects(down({ ...job, attempts: 2 }, jobContext(log)));
    await down({ ...job, attempts: 3 }, jobContext(log));
    assert.equal(log.events('email_staged_retry').length, 1);
  });

  it('a 4xx at end of DATA is retried; a 5xx fails the message permanently', async () => {
    const account = await insertAccount(db);
    const soft = await insertEmail(db, account);
    mta.script = { data: () => ({ code: 451, message: 'Temporary local problem' }) };
    await assert.rejects(run(send, soft), (e: unknown) => !isPermanentJobError(e));
    assert.equal((await emailRow(db, soft)).status, 'queued');

    const hard = await insertEmail(db, account, { to: ['p@example.org'] });
    mta.script = { data: () => ({ code: 554, message: 'Message refused' }) };
    await run(send, hard);
    const email = await emailRow(db, hard);
    assert.equal(email.status, 'failed');
    assert.equal(email.smtp_response, '554 Message refused');
    const outbox = await outboxRows(db, hard);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.data.statusCode, o.data.reason]),
      [['email.failed', 554, '554 Message refused']],
    );
    assert.equal(log.events('email_failed_permanent').length, 1);
  });

  it('a recipient refused at RCPT fails alone; the others are sent', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account, { to: ['ok@example.org', 'nope@example.org'] });
    mta.script = {
      rcpt: (a) => (a === 'nope@example.org' ? { code: 550, message: 'No such user here' } : undefined),
    };
    await run(send, id);
    assert.deepEqual(mta.messages[0]?.rcptTo, ['ok@example.org']);
    assert.equal((await emailRow(db, id)).status, 'sent');
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => [r.address, r.status, r.smtp_response]),
      [
        ['ok@example.org', 'sent', mta.messages[0]?.reply],
        ['nope@example.org', 'failed', '550 No such user here'],
      ],
    );
    const outbox = await outboxRows(db, id);
    assert.deepEqual(
      outbox.map((o) => [o.event, o.recipient, o.data.statusCode ?? null]),
      [
        ['email.sent', 'ok@example.org', null],
        ['email.failed', 'nope@example.org', 550],
      ],
    );
  });

  it('an interrupted attempt (still processing) is sent again on the re-run', async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account);
    const aborted = new AbortController();
    aborted.abort(new Error('lease lost'));
    await assert.rejects(send(handlerJob('email-send', { emailId: id }), jobContext(log, aborted.signal)));
    assert.equal((await emailRow(db, id)).status, 'processing');
    assert.equal(mta.messages.length, 0);

    await run(send, id, 2);
    assert.equal(mta.messages.length, 1);
    const email = await emailRow(db, id);
    assert.equal(email.status, 'sent');
    assert.equal(email.attempts, 2);
    const processing = (await eventRows(db, id)).filter((e) => e.type === 'processing');
    assert.deepEqual(
      processing.map((e) => e.message),
      ['attempt 1', 'attempt 2 (the previous attempt was interrupted)'],
    );
  });

  for (const left of ['processing', 'queued'] as const) {
    it(`no second send when delivery reports show the MTA already has it (message left ${left})`, async () => {
      const account = await insertAccount(db);
      const id = await insertEmail(db, account, { to: ['r1@example.org', 'r2@example.org'] });
      // processing: attempt 1 got the MTA's 250 and the worker died before recording it.
      // queued: the 250 was lost on the way back, so attempt 1 was recorded as a failed hand-off.
      await db.updateTable('emails').set({ status: left, attempts: 1 }).where('id', '=', id).execute();
      await db.updateTable('email_recipients').set({ status: left }).where('email_id', '=', id).execute();
      const report = {
        emailId: id,
        recipient: 'r1@example.org',
        outcome: 'delivered' as const,
        smtpCode: 250,
        enhancedStatus: '2.0.0',
        response: '250 2.0.0 OK',
        attempt: 1,
        host: 'mx.example.org',
        at: new Date().toISOString(),
      };
      await applyMtaOutcome(db, report, { acceptBeforeSent: true });
      assert.equal((await emailRow(db, id)).status, left, 'the other recipient keeps the message in flight');

      await run(send, id, 2);
      assert.equal(mta.messages.length, 0);
      const email = await emailRow(db, id);
      assert.equal(email.status, 'sent');
      assert.equal(email.attempts, 1);
      assert.ok(email.sent_at);
      assert.deepEqual(
        (await recipientRows(db, id)).map((r) => r.status),
        ['delivered', 'sent'],
      );
      assert.equal(log.events('email_sent')[0]?.recovered, true);
      assert.deepEqual(
        (await outboxRows(db, id)).map((o) => [o.event, o.recipient]),
        [
          ['email.delivered', 'r1@example.org'],
          ['email.sent', 'r1@example.org'],
          ['email.sent', 'r2@example.org'],
        ],
      );
      // Once recorded, a further run has nothing to do.
      await run(send, id, 3);
      assert.equal(log.events('email_send_skipped').length, 1);
    });
  }

  it("a retry the worker's own sender left (switched back to haraka): its recipients go to the MTA once", async () => {
    const account = await insertAccount(db);
    const id = await insertEmail(db, account, { to: ['kept@example.org', 'later@example.org'] });
    await run(send, id);
    assert.equal(mta.messages.length, 1);
    mta.messages.length = 0;
    // What the worker's sender records: one recipient delivered, one deferred, a retry job for it.
    const said = { smtpCode: 451, enhancedStatus: '4.3.0', host: 'mx.example.org', attempt: 1 };
    const at = new Date().toISOString();
    await applyMtaOutcome(
      db,
      {
        emailId: id,
        recipient: 'kept@example.org',
        outcome: 'delivered',
        ...said,
        smtpCode: 250,
        response: '250 ok',
        at,
      },
      { acceptBeforeSent: true },
    );
    await applyMtaOutcome(
      db,
      {
        emailId: id,
        recipient: 'later@example.org',
        outcome: 'deferred',
        ...said,
        response: '451 4.3.0 busy',
        at,
      },
      { acceptBeforeSent: true, reporterHoldsQueue: false },
    );
    const retry = { emailId: id, deferred: 1, recipients: ['later@example.org'] };
    await send(handlerJob('email-send', retry), jobContext(log));
    assert.deepEqual(
      (await recipientRows(db, id)).map((r) => [r.address, r.status]),
      [
        ['kept@example.org', 'delivered'],
        ['later@example.org', 'queued'],
      ],
    );
    const resend = await db
      .selectFrom('jobs')
      .select(['payload', 'state'])
      .where('dedupe_key', 'like', `${id}:hand-back:%`)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(resend.payload), { emailId: id, resend: true });
    await send(handlerJob('email-send', { emailId: id, resend: true }), jobContext(log));
    assert.deepEqual(
      mta.messages.map((m) => m.rcptTo),
      [['later@example.org']],
    );
    // The same retry job again (a re-run) finds nothing left to hand over.
    await send(handlerJob('email-send', retry), jobContext(log));
    assert.equal(log.events('email_send_skipped').length, 1);
  });

  it('rejects a payload without an email id as permanent', async () => {
    await assert.rejects(send(handlerJob('email-send', { nope: 1 }), jobContext(log)), isPermanentJobError);
  });

  it('tells the API how to enqueue: budget plus slack, dedupe per message', () => {
    const job = emailSendJob('email_01jabcdefghjkmnpqrstvwxyz0', new Date(0));
    assert.equal(job.maxAttempts, EMAIL_SEND_MAX_ATTEMPTS);
    assert.ok(EMAIL_SEND_MAX_ATTEMPTS > EMAIL_SEND_ATTEMPT_BUDGET);
    assert.equal(job.dedupeKey, 'email_01jabcdefghjkmnpqrstvwxyz0');
    assert.equal(job.runAt?.getTime(), 0);
  });
});
