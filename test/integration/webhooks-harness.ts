// Test harness for the webhook tests: an HTTP receiver on loopback that records
// every request, an independent signature check (node:crypto only, nothing from
// src/), and the real webhook handlers run by the real JobRunner against the
// appliance's own SQLite file. Run as a script it is a killable worker process
// (config from its environment), printing WEBHOOK_WORKER_READY once claiming.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { AppConfig } from '../../src/config';
import { loadConfig, sqlitePath } from '../../src/config';
import type { Db } from '../../src/db/connect';
import { migrate, openDb } from '../../src/db/connect';
import type { WebhookEventName } from '../../src/modules/webhooks/webhook-outbox.repository';
import { recordOutbox } from '../../src/modules/webhooks/webhook-outbox.repository';
import { createWebhookHandlers, seedWebhookSchedules } from '../../src/modules/webhooks/webhooks.jobs';
import type { Logger } from '../../src/shared/logger';
import { createLogger } from '../../src/shared/logger';
import { JobRunner } from '../../src/worker/job-runner';

export interface ReceivedRequest {
  readonly n: number;
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** When the request (headers) arrived, ms since epoch. */
  readonly at: number;
}

export interface Reply {
  readonly status: number;
  readonly delayMs?: number;
  readonly headers?: Record<string, string>;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Requests received and not yet answered. */
  readonly inFlight: () => number;
  /** Decides each answer; `n` counts requests from 1. Default: 200. */
  respond: (req: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let open = 0;
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests,
    inFlight: () => open,
    respond: () => ({ status: 200 }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const at = Date.now();
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: ReceivedRequest = {
        n: requests.length + 1,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      requests.push(got);
      open++;
      const reply = receiver.respond(got);
      const send = (): void => {
        open--;
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end('ok');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, { port, url: `http://${host}:${port}/hook` });
}

/**
 * What a receiver would write, from the spec alone: parse `t=…,v1=…`, HMAC-SHA256
 * the string `<t>.<raw body>` with the secret, compare in constant time, and
 * reject timestamps more than 300 s away.
 */
export function verifySignature(secret: string, header: string | undefined, rawBody: string): boolean {
  if (header === undefined) return false;
  const parts = new Map(
    header.split(',').map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()] as const;
    }),
  );
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !v1 || !/^\d+$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

export interface CapturedLog {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
  /** Raw text, for "never logged" checks. */
  readonly text: string[];
}

export function captureLog(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const text: string[] = [];
  const logger = createLogger({
    level: 'debug',
    process: 'test-worker',
    destination: new Writable({
      write(chunk: Buffer, _enc, cb) {
        const s = chunk.toString();
        text.push(s);
        lines.push(JSON.parse(s) as Record<string, unknown>);
        cb();
      },
    }),
  });
  return { logger, lines, text };
}

export interface HandlerOptions {
  readonly timeoutMs?: number;
  readonly dispatchIntervalMs?: number;
}

export interface WebhookWorker {
  readonly db: Db;
  readonly config: AppConfig;
  readonly log: CapturedLog;
  stop(): Promise<void>;
}

/** The real handlers under the real JobRunner, on the appliance's database, in this process. */
export async function startWebhookWorker(
  env: Record<string, string>,
  options: HandlerOptions & { readonly leaseMs?: number } = {},
): Promise<WebhookWorker> {
  const { config } = loadConfig(env);
  const db = openDb({ file: sqlitePath(config) });
  await migrate(db);
  const log = captureLog();
  const runner = new JobRunner({
    db,
    logger: log.logger,
    idleMs: 20,
    leaseMs: options.leaseMs ?? 5_000,
    handlers: createWebhookHandlers({
      db,
      config,
      timeoutMs: options.timeoutMs,
      dispatchIntervalMs: options.dispatchIntervalMs,
    }),
  });
  await seedWebhookSchedules(db, { dispatchIntervalMs: options.dispatchIntervalMs });
  runner.start();
  return {
    db,
    config,
    log,
    async stop() {
      await runner.stop(5_000);
      await db.destroy();
    },
  };
}

/** Records an event the way the email pipeline does: an outbox row (the producer's real function). */
export async function emit(
  db: Db,
  userId: string,
  event: WebhookEventName,
  data: Record<string, unknown> = {},
  ids: { emailId?: string | null; recipient?: string | null } = {},
): Promise<void> {
  await recordOutbox(db, {
    userId,
    event,
    emailId: ids.emailId === undefined ? 'email_01test' : ids.emailId,
    recipient: ids.recipient === undefined ? 'rcpt@example.org' : ids.recipient,
    data,
  });
}

export async function waitUntil(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const READY_MARKER = 'WEBHOOK_WORKER_READY';

/** As a child process: a worker the crash test can SIGKILL. Logs go to stdout (silenced by LOG_LEVEL). */
async function main(): Promise<void> {
  const { config } = loadConfig(process.env);
  const db = openDb({ file: sqlitePath(config) });
  await migrate(db);
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', process: 'test-webhook-worker' });
  const dispatchIntervalMs = Number(process.env.TEST_DISPATCH_INTERVAL_MS ?? 100);
  const runner = new JobRunner({
    db,
    logger,
    idleMs: 20,
    leaseMs: Number(process.env.TEST_LEASE_MS ?? 1_000),
    concurrency: 8,
    handlers: createWebhookHandlers({ db, config, dispatchIntervalMs }),
  });
  await seedWebhookSchedules(db, { dispatchIntervalMs });
  runner.start();
  process.stdout.write(`${READY_MARKER}\n`);
  process.once('SIGTERM', () => {
    void runner
      .stop(2_000)
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`webhooks-harness: ${String(err)}\n`);
    process.exit(1);
  });
}
