import os from 'node:os';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Db } from '../../src/db/connect';
import type { JobHandler } from '../../src/jobs/job-handler';
import type { MtaOutcomePayload } from '../../src/modules/delivery/mta-outcome';
import { applyMtaOutcome } from '../../src/modules/delivery/outcome-job';
import { createEmailSendHandler, parseEmailSendPayload } from '../../src/modules/delivery/send-job';
import { heartbeatOnce } from '../../src/modules/nodes/heartbeat';
import {
  createNodeSweepHandler,
  NODE_SWEEP_QUEUE,
  scheduleNodeSweep,
} from '../../src/modules/nodes/nodes.jobs';
import { applyOrEnqueueOutcomes } from '../../src/mta/delivery-reports';
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
import type { FakeInjectListener } from '../helpers/fake-inject-listener';
import { SECRET_KEY, startFakeInjectListener } from '../helpers/fake-inject-listener';
import { handlerJob, jobContext } from '../helpers/job-context';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';
import type { TestBackend } from '../helpers/open-database';
import { requirePostgres } from '../helpers/postgres';

/** Issue 23 items 3 and 4: which node holds a message, and the hand-back of a silent node's mail. */

const T0 = '2026-11-26T10:00:00.000Z';
const at = (offsetS: number): Date => new Date(Date.parse(T0) + offsetS * 1000);

/** Both backends, whatever the matrix runs (issue 23): the hand-back is the heart of item 3. */
const BACKENDS: readonly { name: TestBackend; options: { skip?: string } }[] = [
  { name: 'sqlite', options: {} },
  { name: 'postgres', options: requirePostgres() },
];

for (const backend of BACKENDS)
  describe(
    `nodes: hand-off recorded per node, hand-back of a silent node (${backend.name}, fake injection listener)`,
    backend.options,
    () => {
      let t: TestDb;
      let db: Db;
      let mta: FakeInjectListener;
      let log: CapturedLog;
      let account: Account;
      /** node-b's worker: it injects into node-b's MTA. */
      let sendOnB: JobHandler;

      before(async () => {
        t = await createTestDb({ backend: backend.name });
        db = t.db;
        mta = await startFakeInjectListener();
        sendOnB = createEmailSendHandler({
          db,
          config: {
            injectPort: mta.port,
            secretKey: SECRET_KEY,
            mailHostname: 'worker.mailroom.test',
            baseUrl: 'http://localhost:3000',
            dataDir: os.tmpdir(),
            nodeName: 'node-b',
          },
        });
        account = await insertAccount(db);
      });
      after(async () => {
        await mta.close();
        await t.close();
      });
      beforeEach(async () => {
        mta.messages.length = 0;
        log = captureLog();
        await db.deleteFrom('nodes').execute();
        await db.deleteFrom('jobs').execute();
      });

      /** node-b sweeping at `now` (the clock moved, no waiting). */
      const sweepOnB = (now: Date) =>
        createNodeSweepHandler({ db, config: { nodeName: 'node-b', nodeDeadAfterS: 600 }, now: () => now })(
          handlerJob(NODE_SWEEP_QUEUE, {}),
          jobContext(log),
        );

      const report = (
        emailId: string,
        recipient: string,
        outcome: MtaOutcomePayload['outcome'],
        node: string,
      ) =>
        ({
          emailId,
          recipient,
          outcome,
          smtpCode: outcome === 'delivered' ? 250 : 550,
          enhancedStatus: outcome === 'delivered' ? '2.0.0' : '5.1.1',
          response: outcome === 'delivered' ? 'ok' : 'no such user',
          attempt: 1,
          host: 'mx.example.org',
          at: new Date().toISOString(),
          node,
        }) satisfies MtaOutcomePayload;

      /** A message node-a's MTA took: ann delivered, bob sent, cat deferred. */
      async function heldByNodeA(): Promise<string> {
        const id = await insertEmail(db, account, {
          status: 'deferred',
          recipients: [
            { address: 'ann@example.org', status: 'delivered' },
            { address: 'bob@example.org', status: 'sent' },
            { address: 'cat@example.org', status: 'deferred' },
          ],
        });
        await db.updateTable('emails').set({ mta_node: 'node-a' }).where('id', '=', id).execute();
        return id;
      }

      const jobsOf = (queue: string) =>
        db.selectFrom('jobs').selectAll().where('queue', '=', queue).orderBy('created_at').execute();

      it('records the node whose MTA took the hand-off, and the node on the processing and sent entries', async () => {
        const id = await insertEmail(db, account, { to: ['ann@example.org'] });
        await sendOnB(handlerJob('email-send', { emailId: id }), jobContext(log));
        const email = await emailRow(db, id);
        assert.equal(email.status, 'sent');
        assert.equal(email.mta_node, 'node-b');
        const events = await eventRows(db, id);
        assert.deepEqual(
          events.map((e) => [e.type, e.node]),
          [
            ['queued', null],
            ['processing', 'node-b'],
            ['sent', 'node-b'],
          ],
        );
        // The MTA's report carries its node onto the timeline.
        const applied = await applyMtaOutcome(db, report(id, 'ann@example.org', 'delivered', 'node-b'), {
          acceptBeforeSent: false,
        });
        assert.equal(applied.kind, 'applied');
        assert.equal((await eventRows(db, id)).at(-1)?.node, 'node-b');
      });

      it('heartbeats upsert one row per node; started_at starts again only after a gap', async () => {
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(0));
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(3));
        let rows = await db.selectFrom('nodes').selectAll().execute();
        assert.deepEqual(rows, [
          {
            name: 'node-a',
            roles: 'worker,mta',
            started_at: at(0).toISOString(),
            last_seen_at: at(3).toISOString(),
          },
        ]);
        // Another process of the node with a clock a little behind never moves last_seen back.
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(2));
        rows = await db.selectFrom('nodes').selectAll().execute();
        assert.equal(rows[0]?.last_seen_at, at(3).toISOString());
        // Back after an hour: a new start.
        await heartbeatOnce({ db, node: 'node-a', roles: ['api'] }, at(3600));
        rows = await db.selectFrom('nodes').selectAll().execute();
        assert.deepEqual(rows, [
          {
            name: 'node-a',
            roles: 'api',
            started_at: at(3600).toISOString(),
            last_seen_at: at(3600).toISOString(),
          },
        ]);
      });

      it('the sweep is one job per minute slot for the whole cluster, and chains the next slot', async () => {
        const first = await scheduleNodeSweep(db, { now: at(10) });
        const second = await scheduleNodeSweep(db, { now: at(50) });
        assert.equal(first.created, true);
        assert.equal(second.created, false);
        await sweepOnB(at(30));
        const jobs = await jobsOf(NODE_SWEEP_QUEUE);
        assert.deepEqual(
          jobs.map((j) => j.dedupe_key),
          [`sweep:${at(0).toISOString()}`, `sweep:${at(60).toISOString()}`],
        );
      });

      it('hands back what a silent node held, once, with the timeline entry; live nodes and itself are left alone', async () => {
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(0));
        await heartbeatOnce({ db, node: 'node-c', roles: ['worker', 'mta'] }, at(600));
        // node-b's own row is old too: a node never hands back its own queue.
        await heartbeatOnce({ db, node: 'node-b', roles: ['worker', 'mta'] }, at(0));
        const id = await heldByNodeA();
        const finished = await insertEmail(db, account, { status: 'delivered', to: ['dan@example.org'] });
        await db.updateTable('emails').set({ mta_node: 'node-a' }).where('id', '=', finished).execute();
        const onC = await insertEmail(db, account, { status: 'sent', to: ['eve@example.org'] });
        const onB = await insertEmail(db, account, { status: 'sent', to: ['fay@example.org'] });
        await db.updateTable('emails').set({ mta_node: 'node-c' }).where('id', '=', onC).execute();
        await db.updateTable('emails').set({ mta_node: 'node-b' }).where('id', '=', onB).execute();

        // Not silent long enough yet.
        await sweepOnB(at(599));
        assert.equal((await emailRow(db, id)).status, 'deferred');
        assert.equal((await jobsOf('email-send')).length, 0);

        await sweepOnB(at(601));
        const email = await emailRow(db, id);
        assert.equal(email.status, 'queued');
        assert.equal(email.mta_node, null);
        assert.deepEqual(
          (await recipientRows(db, id)).map((r) => [r.address, r.status]),
          [
            ['ann@example.org', 'delivered'],
            ['bob@example.org', 'queued'],
            ['cat@example.org', 'queued'],
          ],
        );
        const last = (await eventRows(db, id)).at(-1);
        assert.equal(last?.type, 'queued');
        assert.equal(last?.message, 'handed back: node node-a silent since 10:00 UTC');
        assert.equal(last?.node, 'node-b');
        const sends = await jobsOf('email-send');
        assert.equal(sends.length, 1);
        assert.deepEqual(parseEmailSendPayload(JSON.parse(sends[0]!.payload)), { emailId: id, resend: true });
        assert.ok(log.lines.some((l) => l.event === 'node_mail_handed_back' && l.silentNode === 'node-a'));

        for (const other of [finished, onC, onB]) {
          assert.equal((await emailRow(db, other)).mta_node === null, false, other);
        }
        // A second sweep (another node's, or the next slot) finds nothing more to do.
        await sweepOnB(at(660));
        assert.equal((await jobsOf('email-send')).length, 1);
        assert.equal((await eventRows(db, id)).filter((e) => e.message?.startsWith('handed back')).length, 1);
      });

      it('the resend goes to the handed-back recipients only; late reports from the silent node change nothing they should not', async () => {
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(0));
        const id = await heldByNodeA();
        await sweepOnB(at(601));
        const outboxBefore = (await outboxRows(db, id)).length;
        const [job] = await jobsOf('email-send');
        await sendOnB(handlerJob('email-send', JSON.parse(job!.payload)), jobContext(log));

        assert.equal(mta.messages.length, 1);
        const msg = mta.messages[0]!;
        assert.deepEqual(msg.rcptTo.sort(), ['bob@example.org', 'cat@example.org']);
        // The headers still name every recipient: it is the same message.
        const parsed = await simpleParser(msg.raw);
        const to = (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a?.value ?? []);
        assert.ok(to.some((a) => a.address === 'ann@example.org'));
        let email = await emailRow(db, id);
        assert.equal(email.status, 'sent');
        assert.equal(email.mta_node, 'node-b');
        assert.deepEqual(
          (await recipientRows(db, id)).map((r) => [r.address, r.status]),
          [
            ['ann@example.org', 'delivered'],
            ['bob@example.org', 'sent'],
            ['cat@example.org', 'sent'],
          ],
        );
        const sent = (await outboxRows(db, id)).slice(outboxBefore).filter((o) => o.event === 'email.sent');
        assert.deepEqual(sent.map((o) => o.recipient).sort(), ['bob@example.org', 'cat@example.org']);

        // node-a comes back and delivers bob from its own queue (at least once), then node-b does too.
        const fromA = await applyMtaOutcome(db, report(id, 'bob@example.org', 'delivered', 'node-a'), {
          acceptBeforeSent: false,
        });
        assert.equal(fromA.kind, 'applied');
        const fromB = await applyMtaOutcome(db, report(id, 'bob@example.org', 'delivered', 'node-b'), {
          acceptBeforeSent: false,
        });
        assert.deepEqual(fromB, { kind: 'ignored', reason: 'duplicate', status: 'delivered' });
        // node-b delivers cat; node-a's late bounce for cat is ignored.
        await applyMtaOutcome(db, report(id, 'cat@example.org', 'delivered', 'node-b'), {
          acceptBeforeSent: false,
        });
        const lateBounce = await applyMtaOutcome(db, report(id, 'cat@example.org', 'bounced', 'node-a'), {
          acceptBeforeSent: false,
        });
        assert.deepEqual(lateBounce, { kind: 'ignored', reason: 'late', status: 'delivered' });

        email = await emailRow(db, id);
        assert.equal(email.status, 'delivered');
        const events = await eventRows(db, id);
        assert.deepEqual(
          events
            .filter((e) => e.type === 'delivered' && e.recipient !== 'ann@example.org')
            .map((e) => [e.recipient, e.node]),
          [
            ['bob@example.org', 'node-a'],
            ['cat@example.org', 'node-b'],
          ],
        );
        const delivered = (await outboxRows(db, id)).filter((o) => o.event === 'email.delivered');
        assert.equal(delivered.filter((o) => o.recipient === 'bob@example.org').length, 1);
        assert.equal((await db.selectFrom('suppressions').selectAll().execute()).length, 0);
      });

      it('a late report that overtakes the resend: applied once, and the resend skips that recipient', async () => {
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(0));
        const id = await heldByNodeA();
        await sweepOnB(at(601));

        // node-a's MTA reports bob delivered while bob waits for the resend: the writer thread
        // leaves it to a job (the recipient is not recorded as handed off), which applies it.
        const disposition = await db
          .transaction()
          .execute((trx) =>
            applyOrEnqueueOutcomes(trx, [report(id, 'bob@example.org', 'delivered', 'node-a')]),
          );
        assert.deepEqual(
          disposition.map((d) => 'enqueued' in d && d.enqueued),
          [true],
        );
        const [outcomeJob] = await jobsOf('mta-outcome');
        const applied = await applyMtaOutcome(db, JSON.parse(outcomeJob!.payload) as MtaOutcomePayload, {
          acceptBeforeSent: true,
        });
        assert.equal(applied.kind, 'applied');
        assert.equal((await eventRows(db, id)).at(-1)?.node, 'node-a');

        const [send] = await jobsOf('email-send');
        await sendOnB(handlerJob('email-send', JSON.parse(send!.payload)), jobContext(log));
        assert.deepEqual(mta.messages[0]?.rcptTo, ['cat@example.org']);
        assert.deepEqual(
          (await recipientRows(db, id)).map((r) => [r.address, r.status]),
          [
            ['ann@example.org', 'delivered'],
            ['bob@example.org', 'delivered'],
            ['cat@example.org', 'sent'],
          ],
        );
        // And when nothing is left to resend, the resend is skipped, not sent.
        const again = await heldByNodeA();
        await sweepOnB(at(700));
        for (const address of ['bob@example.org', 'cat@example.org']) {
          await applyMtaOutcome(db, report(again, address, 'delivered', 'node-a'), {
            acceptBeforeSent: true,
          });
        }
        const resend = (await jobsOf('email-send')).find((j) => j.payload.includes(again));
        mta.messages.length = 0;
        await sendOnB(handlerJob('email-send', JSON.parse(resend!.payload)), jobContext(log));
        assert.equal(mta.messages.length, 0);
        assert.equal((await emailRow(db, again)).status, 'delivered');
      });

      it('a deferral reported before the hand-off was recorded names the node holding the message, so it is handed back', async () => {
        // Under load the MTA's deferral can land before the worker records its hand-off
        // (acceptBeforeSent): the report is then the only record of which node's queue holds
        // the message (found by cluster-two-nodes' SIGKILL case).
        await heartbeatOnce({ db, node: 'node-a', roles: ['worker', 'mta'] }, at(0));
        const id = await insertEmail(db, account, { status: 'processing', to: ['gus@example.org'] });
        const deferred = {
          ...report(id, 'gus@example.org', 'deferred', 'node-a'),
          smtpCode: 451,
          enhancedStatus: '4.3.0',
          response: 'mailbox busy',
        } satisfies MtaOutcomePayload;
        assert.equal((await applyMtaOutcome(db, deferred, { acceptBeforeSent: true })).kind, 'applied');
        assert.equal((await emailRow(db, id)).mta_node, 'node-a');

        await sweepOnB(at(601));
        assert.equal((await emailRow(db, id)).status, 'queued');
        assert.ok((await jobsOf('email-send')).some((j) => j.payload.includes(id)));
      });
    },
  );
