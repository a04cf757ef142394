// Periodic sweeps run once per cluster, not once per worker (issue 23 item 2): two real
// worker processes on one database, started together, each seeding every schedule.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { migrate, openDatabase } from '../../src/db/connect';
import { freePorts } from '../helpers/free-port';
import { requirePostgres, testPostgresUrl } from '../helpers/postgres';
import { waitUntil } from '../helpers/wait-until';
import type { WorkerProcess as Worker } from '../helpers/worker-process';
import { startWorkerProcess as startWorker } from '../helpers/worker-process';

const SECRET_KEY = 'sweeps-once-test-secret-key-0123456789abcdef';
/** The sweeps seeded at worker start, and the event each logs once per run. */
const SWEEPS = [
  { queue: 'retention', event: 'retention_swept' },
  { queue: 'abuse-evaluation', event: 'abuse_sweep' },
  { queue: 'dns-recheck', event: 'dns_recheck_sweep' },
] as const;

/** Both workers up, then what each sweep left behind once the webhook dispatch chain has run a few slots. */
async function runTwoWorkers(databaseUrl: string, root: string): Promise<{ workers: Worker[]; db: Db }> {
  const ports = await freePorts(2);
  const workers = ports.map((port, i) =>
    startWorker({
      DATA_DIR: path.join(root, `node-${i}`),
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      WORKER_PORT: String(port),
      BIND_ADDRESS: '127.0.0.1',
      LOG_LEVEL: 'info',
    }),
  );
  const db = openDatabase(databaseUrl, { poolSize: 2 });
  try {
    for (const [i, port] of ports.entries()) {
      await waitUntil(
        `worker ${i} healthy`,
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
          return res?.ok === true;
        },
        30_000,
      );
    }
    await waitUntil(
      'three webhook dispatch slots and every seeded sweep done',
      async () => {
        const done = await db
          .selectFrom('jobs')
          .select(['queue', 'dedupe_key'])
          .where('state', '=', 'succeeded')
          .execute();
        const dispatches = done.filter((j) => j.dedupe_key?.startsWith('dispatch:')).length;
        return dispatches >= 3 && SWEEPS.every((s) => done.some((j) => j.queue === s.queue));
      },
      30_000,
    );
  } finally {
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exit));
  }
  return { workers, db };
}

async function assertEachSlotRanOnce(workers: Worker[], db: Db): Promise<void> {
  const rows = await db
    .selectFrom('jobs')
    .select(['queue', 'dedupe_key', 'state', 'attempts', 'lease_owner'])
    .where('queue', 'in', ['retention', 'abuse-evaluation', 'dns-recheck', 'webhook-delivery'])
    .execute();
  const finished = rows.filter((r) => r.state === 'succeeded');
  for (const row of finished) {
    assert.equal(row.attempts, 1, `${row.queue} ${row.dedupe_key} ran once`);
  }
  const keys = rows.map((r) => `${r.queue} ${r.dedupe_key}`);
  assert.equal(new Set(keys).size, keys.length, 'one job per (queue, slot)');
  for (const sweep of SWEEPS) {
    const runs = workers.flatMap((w) => w.lines.filter((l) => l.event === sweep.event));
    assert.equal(runs.length, 1, `${sweep.queue}: this slot's sweep ran once across both workers`);
    assert.equal(finished.filter((r) => r.queue === sweep.queue).length, 1);
  }
  const owners = new Set(finished.map((r) => r.lease_owner));
  // Which worker takes a slot is a race; that both could is the point, not that both did.
  process.stderr.write(`sweep jobs finished by ${owners.size} worker(s): ${finished.length} jobs\n`);
}

void describe('periodic sweeps with two workers on one database', () => {
  let root: string;
  before(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-sweeps-'));
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  void it('SQLite: each slot of each sweep runs once', { timeout: 90_000 }, async () => {
    const file = path.join(root, 'shared', 'mail.db');
    const setup = openDatabase(file);
    await migrate(setup);
    await setup.destroy();
    const { workers, db } = await runTwoWorkers(`sqlite:${file}`, path.join(root, 'sqlite'));
    try {
      await assertEachSlotRanOnce(workers, db);
    } finally {
      await db.destroy();
    }
  });

  void it(
    'PostgreSQL: each slot of each sweep runs once',
    { timeout: 90_000, ...requirePostgres() },
    async () => {
      const url = await testPostgresUrl();
      const { workers, db } = await runTwoWorkers(url, path.join(root, 'postgres'));
      try {
        await assertEachSlotRanOnce(workers, db);
      } finally {
        await db.destroy();
      }
    },
  );
});
