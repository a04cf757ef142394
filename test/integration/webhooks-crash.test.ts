import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';
import { emit, READY_MARKER } from '../helpers/webhook-worker';

const WORKER_SCRIPT = path.join(__dirname, '..', 'helpers', 'webhook-worker.js');
const EVENTS = 300;
const KILLS = 4;

/** Issue 7: a SIGKILL of the worker during a burst loses no event. */
describe('webhook delivery across worker crashes', () => {
  let app: Appliance;
  let db: Db;
  let receiver: Receiver;
  let apiKey: string;
  let userId: string;
  let worker: ChildProcess | undefined;

  const spawnWorker = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, [WORKER_SCRIPT], {
      env: {
        ...app.env,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_BASE_MS: '100',
        LOG_LEVEL: 'silent',
        TEST_LEASE_MS: '2000',
        TEST_DISPATCH_INTERVAL_MS: '50',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes(READY_MARKER)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    });
    return child;
  };
  const kill = async (child: ChildProcess): Promise<void> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };

  before(async () => {
    app = await startAppliance({ processes: ['api'], env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    ({ apiKey, userId } = await app.api.registerWithKey());
    db = openApplianceDb(app);
    receiver = await startReceiver();
    // Latency, so the worker's 8 slots stay busy through the burst and every kill lands mid-request.
    receiver.respond = () => ({ status: 200, delayMs: 50 + Math.floor(Math.random() * 100) });
  });
  after(async () => {
    if (worker && worker.exitCode === null) await kill(worker);
    await db.destroy();
    await app.stop();
    await receiver.close();
  });

  it(`delivers all ${EVENTS} events of a burst despite ${KILLS} SIGKILLs of the worker`, async (t) => {
    const res = await app.api.post<{ id: string; secret: string }>('/v1/webhooks', {
      token: apiKey,
      body: { url: receiver.url, events: ['email.sent'] },
    });
    assert.equal(res.status, 201, res.text);
    const { secret } = res.body;

    worker = await spawnWorker();
    const burst = (async () => {
      for (let i = 0; i < EVENTS; i++) {
        await emit(db, userId, 'email.sent', {}, { emailId: `email_burst${String(i).padStart(4, '0')}` });
        if (i % 25 === 24) await new Promise((r) => setTimeout(r, 40));
      }
    })();
    for (let k = 0; k < KILLS; k++) {
      // Kill while a delivery is in flight (its request reached the receiver, its job is not settled).
      await waitUntil('a request in flight', () => receiver.inFlight() > 0, 10_000).catch(() => undefined);
      await new Promise((r) => setTimeout(r, Math.random() * 30));
      await kill(worker);
      worker = await spawnWorker();
    }
    await burst;

    const emailIds = (): Set<string> =>
      new Set(receiver.requests.map((q) => (JSON.parse(q.body) as { emailId: string }).emailId));
    try {
      await waitUntil(`all ${EVENTS} events`, () => emailIds().size === EVENTS, 60_000);
    } catch (err) {
      const jobs = await db
        .selectFrom('jobs')
        .select(['state', 'payload', 'attempts', 'last_error', 'run_at'])
        .where('queue', '=', 'webhook-delivery')
        .where('state', '!=', 'succeeded')
        .execute();
      const pending = await db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).execute();
      t.diagnostic(`received ${emailIds().size}; outbox pending ${pending.length}; ${JSON.stringify(jobs)}`);
      throw err;
    }

    const byDelivery = new Map<string, string>();
    for (const q of receiver.requests) {
      assert.ok(verifySignature(secret, q.headers['x-mail-signature'] as string, q.body));
      const deliveryId = q.headers['x-mail-delivery-id'] as string;
      const emailId = (JSON.parse(q.body) as { emailId: string }).emailId;
      // At-least-once: a repeat carries the same delivery id as the first copy.
      assert.equal(byDelivery.get(deliveryId) ?? emailId, emailId);
      byDelivery.set(deliveryId, emailId);
    }
    assert.equal(byDelivery.size, EVENTS);
    const pending = await db
      .selectFrom('outbox')
      .select('id')
      .where('dispatched_at', 'is', null)
      .where('user_id', '=', userId)
      .execute();
    assert.equal(pending.length, 0);
    // The kills did hit running deliveries: their jobs were claimed again after the lease ran out.
    const reclaimed = await db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', 'webhook-delivery')
      .where('attempts', '>', 1)
      .where('payload', 'like', '{"kind":"deliver"%')
      .execute();
    assert.ok(reclaimed.length > 0);
    t.diagnostic(
      `${receiver.requests.length} requests for ${EVENTS} events; ${reclaimed.length} deliveries re-run after kills`,
    );
  });
});
