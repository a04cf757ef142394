// The worker entry point as the supervisor and the container run it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { queueDepths } from '../../src/jobs/queue-stats';
import { openTestDatabase } from '../helpers/open-database';
import { processDatabase } from '../helpers/test-db';
import { waitUntil } from '../helpers/wait-until';
import { startWorkerProcess as startWorker } from '../helpers/worker-process';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const timeout = sleep(ms, undefined, { ref: false }).then(() => {
    throw new Error(`${what} took over ${ms} ms`);
  });
  return Promise.race([promise, timeout]);
}

void describe('worker process (dist/src/worker/main.js)', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-worker-'));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  void it(
    'serves GET /health, migrates the database, and exits 0 on SIGTERM',
    { timeout: 30_000 },
    async () => {
      const port = await freePort();
      const database = await processDatabase(dir);
      const w = startWorker({
        DATA_DIR: dir,
        ...database.env,
        WORKER_PORT: String(port),
        BIND_ADDRESS: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      try {
        let res: Response | undefined;
        for (const deadline = Date.now() + 10_000; !res && Date.now() < deadline;) {
          res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => sleep(50).then(() => undefined));
        }
        assert.ok(res, 'health port answered within 10 s');
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { status: 'ok' });

        const missing = await fetch(`http://127.0.0.1:${port}/nope`);
        assert.equal(missing.status, 404);
        assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');

        // The health port opens before the runner's start is logged (on PostgreSQL, after its
        // LISTEN is ready), and the line crosses a pipe: wait for it rather than race it.
        await waitUntil(
          'worker_started in the log',
          () => w.lines.some((l) => l.event === 'worker_started'),
          10_000,
        );
        const started = w.lines.find((l) => l.event === 'worker_started');
        assert.ok(started, 'logged worker_started');
        assert.equal(started.process, 'worker');

        const db = openTestDatabase(database.url);
        try {
          assert.equal((await queueDepths(db))['email-send'], 0, 'jobs table exists');
        } finally {
          await db.destroy();
        }
        await fs.access(path.join(dir, 'secret.key'));

        w.child.kill('SIGTERM');
        const { code, signal } = await within(w.exit, 10_000, 'exit after SIGTERM');
        assert.deepEqual({ code, signal }, { code: 0, signal: null });
        assert.ok(w.lines.some((l) => l.event === 'worker_stopped'));
      } finally {
        w.child.kill('SIGKILL');
      }
    },
  );

  void it(
    'exits 78 with config_invalid naming the bad key when the configuration is invalid',
    { timeout: 15_000 },
    async () => {
      const w = startWorker({ DATA_DIR: dir, WORKER_PORT: 'not-a-port', BIND_ADDRESS: '127.0.0.1' });
      const { code } = await within(w.exit, 10_000, 'exit on bad config');
      assert.equal(code, 78);
      const line = w.lines.find((l) => l.event === 'config_invalid') as
        { problems?: { env: string }[] } | undefined;
      assert.deepEqual(
        line?.problems?.map((p) => p.env),
        ['WORKER_PORT'],
      );
    },
  );
});
