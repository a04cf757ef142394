import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { claim } from '../../../src/jobs/claim';
import { enqueue } from '../../../src/jobs/enqueue';
import { createLogger } from '../../../src/shared/logger';
import type { HandlerJob, HandlerRegistry } from '../../../src/jobs/job-handler';
import { PermanentJobError } from '../../../src/jobs/job-handler';
import { JobRunner } from '../../../src/worker/job-runner';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

type LogLine = Record<string, unknown> & { event?: string };
const FAST = { baseMs: 10, maxMs: 10, jitter: 0 };

async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

void describe('JobRunner', () => {
  let t: TestDb;
  let logs: LogLine[];
  let runner: JobRunner | undefined;

  beforeEach(async () => {
    t = await createTestDb();
    logs = [];
  });
  afterEach(async () => {
    await runner?.stop(1_000);
    runner = undefined;
    await t.close();
  });

  function start(
    handlers: HandlerRegistry,
    options: Partial<ConstructorParameters<typeof JobRunner>[0]> = {},
  ) {
    const logger = createLogger({
      level: 'debug',
      destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
    });
    runner = new JobRunner({ db: t.db, handlers, logger, idleMs: 20, backoff: FAST, ...options });
    runner.start();
    return runner;
  }

  const states = async () =>
    (
      await t.db.selectFrom('jobs').select(['id', 'state', 'attempts', 'last_error']).orderBy('id').execute()
    ).map((r) => ({ ...r }));
  const events = (name: string) => logs.filter((l) => l.event === name);

  void it('runs each due job through its queue handler and completes it', async () => {
    const seen: HandlerJob[] = [];
    const a = await enqueue(t.db, { queue: 'email-send', payload: { emailId: 'e1' } });
    const other = await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    start({ 'email-send': (job) => Promise.resolve(void seen.push(job)) });
    await waitFor('completion', async () => (await states()).some((r) => r.state === 'succeeded'));
    assert.deepEqual(seen, [
      { id: a.id, queue: 'email-send', payload: { emailId: 'e1' }, attempts: 1, maxAttempts: 5 },
    ]);
    const rows = await states();
    assert.equal(
      rows.find((r) => r.id === other.id)?.state,
      'queued',
      'a queue without a handler is left alone',
    );
    assert.deepEqual(runner?.queues, ['email-send']);
  });

  void it('retries a throwing handler with backoff until it succeeds, logging without the payload', async () => {
    let calls = 0;
    await enqueue(t.db, { queue: 'email-send', payload: { password: 'hunter2', body: 'secret body' } });
    start({
      'email-send': () => {
        calls++;
        return calls < 3 ? Promise.reject(new Error(`transient ${calls}`)) : Promise.resolve();
      },
    });
    await waitFor('success', async () => (await states())[0]?.state === 'succeeded');
    assert.equal(calls, 3);
    assert.deepEqual(
      events('job_failed').map((l) => [l.attempts, l.error, l.permanent]),
      [
        [1, 'transient 1', false],
        [2, 'transient 2', false],
      ],
    );
    assert.equal(events('job_retry_scheduled').length, 2);
    assert.equal(events('job_dead').length, 0);
    const all = JSON.stringify(logs);
    assert.ok(!all.includes('hunter2') && !all.includes('secret body'), 'payloads never reach the log');
  });

  void it('ends a job at once on PermanentJobError, and after max attempts otherwise', async () => {
    const permanent = await enqueue(t.db, { queue: 'email-send', payload: {}, maxAttempts: 5 });
    const exhausted = await enqueue(t.db, { queue: 'bounce-processing', payload: {}, maxAttempts: 2 });
    start({
      'email-send': () => Promise.reject(new PermanentJobError('domain deleted')),
      'bounce-processing': () => Promise.reject(new Error('still broken')),
    });
    await waitFor('both terminal', async () => (await states()).every((r) => r.state === 'failed'));
    const rows = await states();
    assert.deepEqual(
      rows.map((r) => [r.id, r.attempts, r.last_error]),
      [
        [permanent.id, 1, 'PermanentJobError: domain deleted'],
        [exhausted.id, 2, 'still broken'],
      ],
    );
    const dead = events('job_dead').map((l) => [l.id, l.reason]);
    assert.deepEqual(
      dead.sort(),
      [
        [permanent.id, 'permanent'],
        [exhausted.id, 'attempts_exhausted'],
      ].sort(),
    );
  });

  void it('fails a job whose payload is not JSON permanently instead of crashing the claim', async () => {
    const { id } = await enqueue(t.db, { queue: 'email-send', payload: {} });
    await t.db.updateTable('jobs').set({ payload: '{not json' }).where('id', '=', id).execute();
    let called = false;
    start({ 'email-send': () => Promise.resolve(void (called = true)) });
    await waitFor('failure', async () => (await states())[0]?.state === 'failed');
    assert.equal(called, false);
    assert.equal((await states())[0]?.attempts, 1);
  });

  void it('never runs more handlers at once than its concurrency', async () => {
    let running = 0;
    let peak = 0;
    for (let i = 0; i < 20; i++) await enqueue(t.db, { queue: 'email-send', payload: { i } });
    start(
      {
        'email-send': async () => {
          peak = Math.max(peak, ++running);
          await sleep(15);
          running--;
        },
      },
      { concurrency: 3 },
    );
    await waitFor('all done', async () => (await states()).every((r) => r.state === 'succeeded'));
    assert.equal(peak, 3);
  });

  void it('a queue full of slow jobs does not delay a job in another queue', async () => {
    // Every slot would go to the flood if the slots were shared by all queues (issue 28, item 4).
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowRunning = 0;
    try {
      for (let i = 0; i < 30; i++) await enqueue(t.db, { queue: 'inbound-processing', payload: { i } });
      for (let i = 0; i < 30; i++) await enqueue(t.db, { queue: 'webhook-delivery', payload: { i } });
      let sent = false;
      let swept = false;
      start(
        {
          'inbound-processing': async () => {
            slowRunning++;
            await gate;
          },
          'webhook-delivery': async () => {
            slowRunning++;
            await gate;
          },
          'email-send': () => Promise.resolve(void (sent = true)),
          retention: () => Promise.resolve(void (swept = true)),
        },
        { concurrency: 8 },
      );
      await waitFor('the floods to fill the shared slots', () => slowRunning >= 5);
      await sleep(100);
      assert.equal(slowRunning, 5, "of eight slots, two are email-send's and one retention's");
      await enqueue(t.db, { queue: 'email-send', payload: {} });
      await enqueue(t.db, { queue: 'retention', payload: {} });
      await waitFor('the send and the sweep beside the floods', () => sent && swept, 2_000);
    } finally {
      release();
    }
  });

  void it('wake() claims at once instead of after the idle sleep', async () => {
    let ran = false;
    const r = start({ 'email-send': () => Promise.resolve(void (ran = true)) }, { idleMs: 60_000 });
    await sleep(50);
    await enqueue(t.db, { queue: 'email-send', payload: {} });
    r.wake();
    await waitFor('handler', () => ran, 2_000);
  });

  void it('renews the lease of a handler that outlives it', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: {} });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    start({ 'email-send': () => gate }, { leaseMs: 300 });
    await waitFor('claim', async () => (await states())[0]?.state === 'running');
    await sleep(700);
    const reclaim = await claim(t.db, { queues: ['email-send'], owner: 'other', leaseMs: 1_000, limit: 1 });
    assert.deepEqual(reclaim.jobs, [], 'lease was kept alive past its original 300 ms');
    release();
    await waitFor('success', async () => (await states())[0]?.state === 'succeeded');
    assert.equal((await states())[0]?.attempts, 1);
  });

  void it('aborts a handler whose lease was taken over, and does not record its outcome', async () => {
    const { id } = await enqueue(t.db, { queue: 'email-send', payload: {} });
    let aborted = false;
    start(
      {
        'email-send': (_job, ctx) =>
          new Promise<void>((resolve) =>
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              resolve();
            }),
          ),
      },
      { leaseMs: 150 },
    );
    await waitFor('claim', async () => (await states())[0]?.state === 'running');
    // What another worker's claim after an expiry looks like.
    await t.db
      .updateTable('jobs')
      .set({ lease_owner: 'someone-else', attempts: 2 })
      .where('id', '=', id)
      .execute();
    await waitFor('abort', () => aborted);
    await waitFor('lost log', () => events('job_lease_lost').length > 0);
    const row = await t.db.selectFrom('jobs').select(['state', 'lease_owner']).executeTakeFirstOrThrow();
    assert.deepEqual(row, { state: 'running', lease_owner: 'someone-else' });
  });

  void it('logs job_dead for a job whose lease expired on its last attempt', async () => {
    const { id } = await enqueue(t.db, { queue: 'email-send', payload: {}, maxAttempts: 1 });
    await claim(t.db, { queues: ['email-send'], owner: 'crashed', leaseMs: 1, limit: 1 });
    await sleep(5);
    start({ 'email-send': () => Promise.resolve() });
    await waitFor('dead log', () => events('job_dead').length > 0);
    assert.deepEqual(
      events('job_dead').map((l) => [l.id, l.reason, l.attempts]),
      [[id, 'lease_expired', 1]],
    );
  });

  void it('on stop, lets running handlers finish and claims nothing more', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: { n: 1 } });
    let started = 0;
    const r = start(
      {
        'email-send': async () => {
          started++;
          await sleep(200);
        },
      },
      { concurrency: 1 },
    );
    await waitFor('start', () => started === 1);
    const stopping = r.stop(5_000);
    await enqueue(t.db, { queue: 'email-send', payload: { n: 2 } });
    assert.deepEqual(await stopping, { abandoned: 0 });
    runner = undefined;
    assert.deepEqual(
      (await states()).map((s) => s.state),
      ['succeeded', 'queued'],
    );
    assert.equal(started, 1);
  });

  void it('on stop, gives up on a handler at the deadline and leaves its job to lease expiry', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: {} });
    let signal: AbortSignal | undefined;
    const r = start({
      'email-send': (_job, ctx) => {
        signal = ctx.signal;
        return new Promise<void>(() => undefined);
      },
    });
    await waitFor('start', () => signal !== undefined);
    const began = Date.now();
    assert.deepEqual(await r.stop(200), { abandoned: 1 });
    runner = undefined;
    assert.ok(Date.now() - began < 1_000);
    assert.equal(signal?.aborted, true);
    const row = await t.db.selectFrom('jobs').select(['state', 'lease_expires_at']).executeTakeFirstOrThrow();
    assert.equal(row.state, 'running');
    assert.ok(row.lease_expires_at);
  });
});
