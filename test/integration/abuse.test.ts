// Abuse evaluation and suspension effects against the real appliance: the api process
// serves the account, and the real job runner (in this process, on the appliance's
// database) runs the `abuse-evaluation` handler as the worker does once it is wired.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import {
  createGovernanceHandlers,
  requestAbuseEvaluation,
  scheduleAbuseSweep,
  seedGovernanceSchedules,
  SWEEP_INTERVAL_MS,
} from '../../src/modules/abuse/abuse.jobs';
import { JobRunner } from '../../src/worker/job-runner';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { captureLog } from '../helpers/capture-log';
import { runCtl } from '../helpers/ctl';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';
import type { FixtureAccount } from '../helpers/email-fixtures';
import { insertEmail } from '../helpers/email-fixtures';

interface AuditLine {
  actorType: string;
  actorId: string | null;
  action: string;
  details: Record<string, unknown> | null;
}

interface EmailView {
  status: string;
  recipients: { email: string; status: string }[];
  events: { type: string; message: string | null }[];
}

type Account = FixtureAccount & { apiKey: string; token: string; domain: string };

describe('abuse evaluation and suspension', () => {
  let dns: FakeDns;
  let app: Appliance;
  let db: Db;
  let runner: JobRunner;
  // The seeded evidence is 55 attempted recipients: above this minimum (ABUSE_MIN_VOLUME).
  const config = { abuseAutoSuspend: false, abuseMinVolume: 50 };
  const { logger, lines: logs } = captureLog({ process: 'test-worker', level: 'info' });
  // Evaluation slots counted back from one fixed minute a day ago: stepping back from
  // Date.now() at each call would give two calls the same minute whenever the clock
  // crossed a minute boundary between them (the second then dedupes and never runs).
  const dayAgo = Math.floor((Date.now() - 86_400_000) / 60_000) * 60_000;
  let slot = 1;
  let domains = 0;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: {
        DNS_SERVERS: dns.address,
        RATE_LIMIT_EMAILS_PER_HOUR: '1000',
        NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
      },
    });
    db = openApplianceDb(app);
    runner = new JobRunner({ db, handlers: createGovernanceHandlers({ db, config }), logger, idleMs: 50 });
    runner.start();
  });
  after(async () => {
    await runner.stop(2_000);
    await db.destroy();
    await app.stop();
    await dns.close();
  });

  async function account(): Promise<Account> {
    const { apiKey, token, userId } = await app.api.registerWithKey();
    const domain = `abuse${++domains}.example.com`;
    const { id } = await addVerifiedDomain(app, dns, token, domain);
    return { apiKey, token, userId, domainId: id, domain };
  }

  /** 55 attempted recipients in the last day, `bounced` of them bounced (10 is 18 %). */
  async function seedBounces(a: FixtureAccount, bounced = 10, at = new Date(Date.now() - 3_600_000 * 2)) {
    await insertEmail(db, a, {
      createdAt: at.toISOString(),
      status: 'bounced',
      recipients: Array.from({ length: 55 }, (_, i) => ({
        address: `b${i}@example.org`,
        status: i < bounced ? ('bounced' as const) : ('delivered' as const),
      })),
    });
  }

  async function waitForJob(id: string): Promise<string> {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(50)) {
      const job = await db
        .selectFrom('jobs')
        .select(['state', 'last_error'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (job?.state === 'succeeded') return job.state;
      if (job?.state === 'failed') throw new Error(`job failed: ${job.last_error}`);
    }
    throw new Error(`job ${id} did not finish`);
  }

  /**
   * One evaluation, as after a send; each call takes its own minute slot a day in
   * the past, so it is due now and never shares a dedupe key with the evaluations
   * that the test's sends (or the sweep) enqueue for recent minutes.
   */
  async function evaluate(userId: string): Promise<void> {
    const { id, created } = await requestAbuseEvaluation(db, userId, new Date(dayAgo - 60_000 * slot++));
    assert.ok(created, 'a new evaluation job');
    await waitForJob(id);
  }

  async function audit(userId: string, action: string): Promise<AuditLine[]> {
    const res = await runCtl(app.env, ['audit', 'list', '--json', '--account', userId, '--action', action]);
    assert.equal(res.code, 0, res.stderr);
    return res.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditLine);
  }

  async function send(a: Account, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: a.apiKey,
      body: {
        from: `hi@${a.domain}`,
        to: ['q1@example.org', 'q2@example.org'],
        subject: 'Hi',
        text: 'x',
        ...extra,
      },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.id;
  }

  async function expectSuspended(a: Account, tokens = [a.apiKey, a.token]): Promise<void> {
    for (const token of tokens) {
      const res = await app.api.get<{ error: { code: string } }>('/v1/settings', { token });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'ACCOUNT_SUSPENDED');
    }
  }

  async function expectStopped(a: Account, id: string): Promise<void> {
    const res = await app.api.get<EmailView>(`/v1/emails/${id}`, { token: a.apiKey });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'failed');
    assert.deepEqual(
      res.body.recipients.map((r) => r.status),
      ['failed', 'failed'],
    );
    const stopped = res.body.events.filter((e) => e.type === 'stopped');
    assert.deepEqual(
      stopped.map((e) => e.message),
      ['account suspended'],
    );
    const outbox = await db
      .selectFrom('outbox')
      .select(['event', 'payload'])
      .where('email_id', '=', id)
      .execute();
    assert.deepEqual(
      outbox.map((o) => [o.event, (JSON.parse(o.payload) as { reason: string }).reason]),
      [
        ['email.failed', 'account suspended'],
        ['email.failed', 'account suspended'],
      ],
    );
  }

  const reinstate = (a: Account) =>
    app.api.post<{ status: string; suspendedAt: string | null; suspensionReason: string | null }>(
      `/internal/accounts/${a.userId}/reinstate`,
      { headers: { 'x-internal-token': app.internalToken } },
    );

  it('auto-suspend off: a firing signal is audited and logged once, the account stays active', async () => {
    config.abuseAutoSuspend = false;
    const a = await account();
    await seedBounces(a);
    await evaluate(a.userId);

    const entries = await audit(a.userId, 'abuse.signals_detected');
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.actorType, 'system');
    const detected = entries[0]!.details as {
      signals: { name: string; value: number }[];
      autoSuspend: boolean;
    };
    assert.deepEqual(
      detected.signals.map((s) => [s.name, s.value]),
      [['bounce_rate', 18.18]],
    );
    assert.equal(detected.autoSuspend, false);
    const line = logs.find((l) => l.event === 'abuse_signals' && l.userId === a.userId);
    assert.ok(line, 'abuse_signals log line');
    assert.equal(line.level, 'warn');

    assert.equal((await app.api.get('/v1/settings', { token: a.apiKey })).status, 200);
    // Still firing on the next evaluation: not recorded again.
    await evaluate(a.userId);
    assert.equal((await audit(a.userId, 'abuse.signals_detected')).length, 1);
    assert.equal(logs.filter((l) => l.event === 'abuse_signals' && l.userId === a.userId).length, 1);
  });

  it('auto-suspend on: suspends, stops queued and scheduled mail; reinstating does not resume it', async () => {
    config.abuseAutoSuspend = true;
    try {
      const a = await account();
      const now = await send(a);
      const later = await send(a, { scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });
      await seedBounces(a);
      await evaluate(a.userId);

      await expectSuspended(a);
      const suspended = await audit(a.userId, 'user.suspended');
      assert.equal(suspended.length, 1);
      assert.equal(suspended[0]!.actorType, 'system');
      const details = suspended[0]!.details as { reason: string; stoppedEmails: number };
      assert.match(details.reason, /^automatic: abuse signals bounce_rate 18\.18% > 10% \(24h\)/);
      assert.equal(details.stoppedEmails, 2);
      assert.ok(
        logs.some((l) => l.event === 'account_suspended' && l.userId === a.userId && l.automatic === true),
      );

      const back = await reinstate(a);
      assert.equal(back.status, 200, back.text);
      assert.deepEqual(
        [back.body.status, back.body.suspendedAt, back.body.suspensionReason],
        ['ACTIVE', null, null],
      );
      await expectStopped(a, now);
      await expectStopped(a, later);
      // The session issued before the suspension stays ended (issue 28); the API key works again.
      assert.equal((await app.api.get('/v1/settings', { token: a.token })).status, 401);

      // The operator looked and reinstated: the same evidence does not suspend again...
      await evaluate(a.userId);
      assert.equal((await app.api.get('/v1/settings', { token: a.apiKey })).status, 200);
      assert.equal((await audit(a.userId, 'user.suspended')).length, 1);
      // ...but new evidence after the reinstatement does.
      await seedBounces(a, 20, new Date());
      await evaluate(a.userId);
      await expectSuspended(a, [a.apiKey]);
      assert.equal((await audit(a.userId, 'user.suspended')).length, 2);
    } finally {
      config.abuseAutoSuspend = false;
    }
  });

  it('an operator suspension stops queued mail and ends every key and session at once', async () => {
    const a = await account();
    const ids = [await send(a), await send(a)];
    const res = await app.api.post<{ status: string; stoppedEmails: number; suspensionReason: string }>(
      `/internal/accounts/${a.userId}/suspend`,
      { headers: { 'x-internal-token': app.internalToken }, body: { reason: 'phishing report' } },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [res.body.status, res.body.stoppedEmails, res.body.suspensionReason],
      ['SUSPENDED', 2, 'phishing report'],
    );
    await expectSuspended(a);
    const [entry] = await audit(a.userId, 'user.suspended');
    assert.equal(entry?.actorType, 'operator');

    assert.equal((await reinstate(a)).status, 200);
    for (const id of ids) await expectStopped(a, id);
    // New mail after reinstatement is queued normally.
    const fresh = await send(a);
    const view = await app.api.get<EmailView>(`/v1/emails/${fresh}`, { token: a.apiKey });
    assert.equal(view.body.status, 'queued');
  });

  it('the sweep evaluates every active account with recent mail and chains the next sweep', async () => {
    const quiet = await account();
    const busy = await account();
    await send(busy);
    await seedGovernanceSchedules(db);
    await seedGovernanceSchedules(db); // idempotent: one job per slot
    const slotStart = new Date(Math.floor(Date.now() / SWEEP_INTERVAL_MS) * SWEEP_INTERVAL_MS).toISOString();
    const seeded = await db
      .selectFrom('jobs')
      .select(['id', 'state'])
      .where('queue', '=', 'abuse-evaluation')
      .where('dedupe_key', '=', `sweep:${slotStart}`)
      .execute();
    assert.equal(seeded.length, 1);
    // Run a sweep now (a past slot, so it is due), as the schedule would.
    const { id } = await scheduleAbuseSweep(db, { now: new Date(Date.now() - 3 * SWEEP_INTERVAL_MS) });
    await waitForJob(id);
    const keys = (
      await db.selectFrom('jobs').select('dedupe_key').where('queue', '=', 'abuse-evaluation').execute()
    ).map((j) => j.dedupe_key ?? '');
    assert.ok(
      keys.some((k) => k.startsWith(`account:${busy.userId}:`)),
      'busy account evaluated',
    );
    assert.ok(!keys.some((k) => k.startsWith(`account:${quiet.userId}:`)), 'quiet account not evaluated');
    assert.ok(logs.some((l) => l.event === 'abuse_sweep'));
  });
});
