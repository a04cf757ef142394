import pg from 'pg';
import type { Logger } from '../shared/logger';

/** The channel migration 022's trigger notifies with the queue of a job that became due. */
export const JOBS_CHANNEL = 'mailroom_jobs';

/** After a lost connection, the next attempt waits this long (the poll covers the gap). */
const RECONNECT_MS = 2_000;

export interface JobListenerOptions {
  readonly url: string;
  /** The queues this worker claims; a notification for another queue is not its work. */
  readonly queues: readonly string[];
  readonly wake: () => void;
  readonly logger: Logger;
  readonly reconnectMs?: number | undefined;
}

export interface JobListener {
  /** Resolves once the first LISTEN is in place (or the first attempt failed; it keeps retrying). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * PostgreSQL's wake-up for idle workers (issue 23 item 2), the cross-node twin of the
 * supervisor's work signal (shared/work-signal.ts): one dedicated connection, outside
 * the pool, LISTENs on JOBS_CHANNEL and wakes the job runner when a job of one of its
 * queues became due on any node. Only a hint, like the work signal: while the
 * connection is down the poll (WORKER_POLL_MS) finds the jobs, and every (re)connect
 * wakes the runner once for what was notified meanwhile.
 */
export function listenForJobs(options: JobListenerOptions): JobListener {
  const queues = new Set(options.queues);
  const reconnectMs = options.reconnectMs ?? RECONNECT_MS;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const lost = (c: pg.Client, err: unknown): void => {
    if (client !== c) return;
    client = undefined;
    c.removeAllListeners();
    // A connection that errored may still be half open: end it, ignoring how that goes.
    c.on('error', () => undefined);
    void c.end().catch(() => undefined);
    if (closed) return;
    options.logger.warn({ event: 'job_listen_lost', err, retryMs: reconnectMs });
    retry = setTimeout(connect, reconnectMs);
    retry.unref();
  };

  const connect = (): void => {
    retry = undefined;
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.url,
      application_name: 'mailroom-worker-listen',
      keepAlive: true,
    });
    client = c;
    c.on('notification', (msg) => {
      if (msg.payload !== undefined && queues.has(msg.payload)) options.wake();
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('connection ended')));
    c.connect()
      .then(() => c.query(`listen ${JOBS_CHANNEL}`))
      .then(() => {
        if (client !== c) return;
        options.logger.info({ event: 'job_listen_started', channel: JOBS_CHANNEL });
        options.wake();
        markReady();
      })
      .catch((err: unknown) => {
        lost(c, err);
        markReady();
      });
  };

  connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
    },
  };
}
