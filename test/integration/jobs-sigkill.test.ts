// Issue "Foundation", acceptance: a worker process is SIGKILLed many times during
// a run of 1,000 jobs; no job is lost and every job ends terminal.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect';
import { enqueue } from '../../src/jobs/enqueue';
import type { JobEffectsTable } from '../helpers/job-worker-process';
import { CREATE_JOB_EFFECTS, READY_MARKER, TEST_QUEUE } from '../helpers/job-worker-process';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';

const JOBS = 1_000;
const WORKERS = 2;
const LEASE_MS = 1_000;
const MIN_KILLS = 10;
// Workers are killed for this long (and at least MIN_KILLS times); then the survivors finish the run.
// The deadline is generous because CI runs this beside other integration files on two cores.
const KILL_PHASE_MS = 20_000;
const RUN_DEADLINE_MS = 150_000;
/**
 * A worker killed within moments of starting to claim has done nothing worth
 * interrupting: under CPU load restarts get slow, and killing fresh workers
 * would turn the run into a test of process start-up that never finishes.
 */
const MIN_UPTIME_MS = 150;
const WORKER_SCRIPT = path.join(__dirname, '../helpers/job-worker-process.js');

interface Slot {
  child: ChildProcess;
  /** Resolves once the runner is claiming: a kill before that would only exercise process start-up. */
  ready: Promise<void>;
  readyAt: number | undefined;
  exited: Promise<void>;
}

/** A random worker that has been claiming for MIN_UPTIME_MS, waiting for one if need be. */
async function pickVictim(slots: readonly Slot[]): Promise<number> {
  for (;;) {
    const now = Date.now();
    const eligible = slots.flatMap((s, i) =>
      s.readyAt !== undefined && now - s.readyAt >= MIN_UPTIME_MS ? [i] : [],
    );
    if (eligible.length > 0) return eligible[Math.floor(Math.random() * eligible.length)]!;
    if (slots.every((s) => s.readyAt === undefined)) await Promise.race(slots.map((s) => s.ready));
    else await sleep(20);
  }
}

void describe('jobs survive SIGKILLed workers', () => {
  let t: TestDb;
  let url: string;
  let db: Db;
  const stderr: string[] = [];

  before(async () => {
    t = await createTestDb();
    ({ db, url } = t);
    await sql.raw(CREATE_JOB_EFFECTS).execute(db);
  });
  after(async () => t.close());

  function spawnWorker(): Slot {
    const child = spawn(process.execPath, [WORKER_SCRIPT], {
      env: {
        ...process.env,
        JOB_DB_URL: url,
        JOB_LEASE_MS: String(LEASE_MS),
        JOB_CONCURRENCY: '2',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const slot: Slot = { child, exited, readyAt: undefined, ready: Promise.resolve() };
    let out = '';
    slot.ready = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer): void => {
        out += chunk.toString();
        if (!out.includes(READY_MARKER)) return;
        slot.readyAt = Date.now();
        child.stdout?.off('data', onData).resume();
        resolve();
      };
      child.stdout?.on('data', onData);
    });
    return slot;
  }

  async function unfinished(): Promise<number> {
    const row = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('queue', '=', TEST_QUEUE)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return row.n;
  }

  void it(
    `runs ${JOBS} jobs to success while workers are killed at random`,
    { timeout: 170_000 },
    async (t) => {
      await db.transaction().execute(async (trx) => {
        // A job in flight at a kill spends an attempt. At this kill rate, far above any real crash loop, a job
        // caught by three kills in a row does happen; a budget above the default 5 keeps "no job failed" about
        // lost jobs rather than about the crash-loop limit (tested in claim.test).
        for (let i = 0; i < JOBS; i++)
          await enqueue(trx, { queue: TEST_QUEUE, payload: { n: i }, maxAttempts: 10 });
      });

      const began = Date.now();
      const slots: Slot[] = Array.from({ length: WORKERS }, () => spawnWorker());
      let kills = 0;
      let killsWhileWorkLeft = 0;
      try {
        while ((await unfinished()) > 0 || kills < MIN_KILLS) {
          assert.ok(
            Date.now() - began < RUN_DEADLINE_MS,
            `run took over ${RUN_DEADLINE_MS} ms; ${await unfinished()} jobs unfinished`,
          );
          await sleep(200 + Math.random() * 200);
          if (kills >= MIN_KILLS && Date.now() - began > KILL_PHASE_MS) continue;
          const i = await pickVictim(slots);
          const slot = slots[i]!;
          const workLeft = (await unfinished()) > 0;
          slot.child.kill('SIGKILL');
          await slot.exited;
          kills++;
          if (workLeft) killsWhileWorkLeft++;
          slots[i] = spawnWorker();
        }
      } finally {
        for (const slot of slots) slot.child.kill('SIGTERM');
        await Promise.all(slots.map((s) => s.exited));
      }
      const elapsed = Date.now() - began;

      const byState = await db
        .selectFrom('jobs')
        .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
        .where('queue', '=', TEST_QUEUE)
        .groupBy('state')
        .execute();
      const effects = db.$extendTables<{ job_effects: JobEffectsTable }>();
      const missing = await effects
        .selectFrom('jobs')
        .leftJoin('job_effects', 'job_effects.job_id', 'jobs.id')
        .select('jobs.id')
        .where('job_effects.job_id', 'is', null)
        .execute();
      const stats = await effects
        .selectFrom('job_effects')
        .select((eb) => [
          eb.fn.countAll<number>().as('rows'),
          eb.fn.sum<number>('runs').as('runs'),
          eb.fn.max('runs').as('maxRuns'),
        ])
        .executeTakeFirstOrThrow();
      const attempts = await db
        .selectFrom('jobs')
        .select((eb) => [eb.fn.max('attempts').as('max'), eb.fn.sum<number>('attempts').as('sum')])
        .executeTakeFirstOrThrow();

      t.diagnostic(
        `${JOBS} jobs in ${elapsed} ms; ${kills} SIGKILLs (${killsWhileWorkLeft} with work left); ` +
          `${stats.runs - JOBS} repeated effects (max ${stats.maxRuns} runs of one job); ` +
          `attempts: ${attempts.sum} total, max ${attempts.max}`,
      );
      assert.deepEqual(
        byState.map((r) => [r.state, r.n]),
        [['succeeded', JOBS]],
        `every job succeeded (stderr: ${stderr.join('').slice(0, 2_000)})`,
      );
      assert.deepEqual(missing, [], 'every job has its effect');
      assert.equal(stats.rows, JOBS);
      assert.ok(killsWhileWorkLeft >= MIN_KILLS, `${killsWhileWorkLeft} kills landed while work was left`);
      assert.equal(stderr.join(''), '', 'workers wrote nothing to stderr');
    },
  );
});
