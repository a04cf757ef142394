import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from './free-port';
import { ApiClient } from './http-client';
import type { TestBackend } from './open-database';
import { sqliteUrlOf } from './open-database';
import { testBackend, testPostgresUrl } from './postgres';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const MAIN = path.join(REPO_ROOT, 'dist', 'src', 'main.js');

export interface ApplianceOptions {
  /** Extra environment (DNS_SERVERS, SMTP_RELAY, limits ...). */
  readonly env?: Record<string, string>;
  /** Reuse a DATA_DIR (restart tests); default: a new temp dir. */
  readonly dataDir?: string;
  /** Which processes to run (default all). */
  readonly processes?: readonly ('api' | 'worker' | 'mta')[];
  /**
   * Write stdout and stderr straight to this file instead of a pipe read by this process
   * (the benchmarks: a load generator's busy event loop drains a pipe late, and the
   * appliance's synchronous log writes then wait on it). `lines` stays empty.
   */
  readonly logFile?: string;
  /**
   * Default: the matrix's backend (MAILROOM_TEST_BACKEND). On PostgreSQL the appliance gets
   * DATABASE_URL of a fresh database, the same one again when restarted on the same DATA_DIR.
   * Pin 'sqlite' only for tests about SQLite itself, and say why.
   */
  readonly backend?: TestBackend;
}

export interface Appliance {
  readonly baseUrl: string;
  readonly api: ApiClient;
  readonly dataDir: string;
  /** Its DATABASE_URL (`sqlite:<DATA_DIR>/mail.db` unless set): open it with openApplianceDb(). */
  readonly databaseUrl: string;
  readonly ports: { http: number; worker: number; smtp: number; submission: number; inject: number };
  readonly env: Record<string, string>;
  readonly internalToken: string;
  /** Every stdout/stderr line the appliance wrote so far (none with `logFile`). */
  readonly lines: string[];
  readonly process: ChildProcess;
  /** SIGTERM; resolves with exit code and how long the stop took. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  /** SIGKILL to the supervisor and every child (as a power cut would). */
  kill(): Promise<void>;
}

async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  lines: () => string[],
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `appliance: ${what} not ready after ${timeoutMs} ms; last output:\n${lines().slice(-30).join('\n')}`,
  );
}

export function smtpBanner(port: number, host = '127.0.0.1', timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('banner timeout'));
    }, timeoutMs);
    socket.once('data', (d) => {
      clearTimeout(timer);
      socket.end('QUIT\r\n');
      resolve(d.toString('utf8'));
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

const PORT_SETTINGS = ['PORT', 'WORKER_PORT', 'SMTP_PORT', 'SUBMISSION_PORT', 'MTA_INJECT_PORT'];
/** The exit code of an appliance whose listener could not bind (src/shared/listen-failure.ts). */
const LISTEN_FAILED_EXIT = 71;

/**
 * Starts the whole appliance (`node dist/src/main.js`) on ephemeral 127.0.0.1 ports with a temp
 * DATA_DIR. A free port is only free when it was picked: another test running beside this one
 * may take it before the appliance binds, and the appliance then stops with exit 71 (issue 21).
 * When this helper picked every port, it starts again on fresh ones; a test that pins a port
 * gets the exit as it is.
 */
export async function startAppliance(options: ApplianceOptions = {}): Promise<Appliance> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-test-'));
  const databaseUrl = await applianceDatabaseUrl(options, dataDir);
  const portsPicked = !PORT_SETTINGS.some((name) => options.env?.[name] !== undefined);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...options, dataDir, databaseUrl });
    } catch (err) {
      const lostRace =
        err instanceof Error && err.message.startsWith(`appliance exited early (code ${LISTEN_FAILED_EXIT})`);
      if (!portsPicked || !lostRace || attempt === 3) throw err;
    }
  }
}

/** Databases made for a DATA_DIR: a restart on the same DATA_DIR finds its state again. */
const postgresByDataDir = new Map<string, string>();

async function applianceDatabaseUrl(options: ApplianceOptions, dataDir: string): Promise<string> {
  const given = options.env?.DATABASE_URL;
  if (given !== undefined) return given;
  if ((options.backend ?? testBackend()) === 'sqlite') return sqliteUrlOf(dataDir);
  const key = path.resolve(dataDir);
  let url = postgresByDataDir.get(key);
  if (url === undefined) {
    url = await testPostgresUrl();
    postgresByDataDir.set(key, url);
  }
  return url;
}

async function startOnce(
  options: ApplianceOptions & { readonly dataDir: string; readonly databaseUrl: string },
): Promise<Appliance> {
  const { dataDir, databaseUrl } = options;
  const [http, worker, smtp, submission, inject] = (await freePorts(5)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const internalToken = 'test-internal-token-0123456789';
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATA_DIR: dataDir,
    // SQLite's stays implicit (DATA_DIR/mail.db), as an operator's default install has it.
    ...(databaseUrl === sqliteUrlOf(dataDir) ? {} : { DATABASE_URL: databaseUrl }),
    PORT: String(http),
    WORKER_PORT: String(worker),
    SMTP_PORT: String(smtp),
    SUBMISSION_PORT: String(submission),
    MTA_INJECT_PORT: String(inject),
    BIND_ADDRESS: '127.0.0.1',
    MAIL_HOSTNAME: 'mx.mailroom-appliance.net',
    INTERNAL_API_TOKEN: internalToken,
    HTTP_RATE_LIMIT_PER_MINUTE: '100000',
    AUTH_RATE_LIMIT_PER_15_MIN: '100000',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '8000',
    // Existing tests register many accounts per appliance; the signup-mode tests set their own.
    SIGNUP_MODE: 'open',
    // The outbound sender every appliance of a run uses unless its test names one (issue 31).
    ...(process.env.MAILROOM_TEST_OUTBOUND_SENDER === undefined
      ? {}
      : { OUTBOUND_SENDER: process.env.MAILROOM_TEST_OUTBOUND_SENDER }),
    ...options.env,
  };
  const args = [MAIN, ...(options.processes ? [options.processes.join(',')] : [])];
  const lines: string[] = [];
  let child: ChildProcess;
  if (options.logFile !== undefined) {
    const fd = fs.openSync(options.logFile, 'a');
    try {
      child = spawn(process.execPath, args, { env, stdio: ['ignore', fd, fd], detached: true });
    } finally {
      fs.closeSync(fd);
    }
  } else {
    child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          lines.push(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
    }
  }
  const logFile = options.logFile;
  const output = (): string[] =>
    logFile === undefined ? lines : fs.readFileSync(logFile, 'utf8').split('\n');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${http}`;
  const want = options.processes ?? ['api', 'worker', 'mta'];
  const ready = async (): Promise<void> => {
    if (want.includes('api'))
      await waitFor('api', async () => (await fetch(`${baseUrl}/health`)).ok, 30_000, output);
    if (want.includes('worker')) {
      await waitFor(
        'worker',
        async () => (await fetch(`http://127.0.0.1:${worker}/health`)).ok,
        30_000,
        output,
      );
    }
    if (want.includes('mta'))
      await waitFor('mta', async () => (await smtpBanner(smtp)).startsWith('220'), 30_000, output);
  };
  await Promise.race([
    ready(),
    exited.then(({ code }) => {
      throw new Error(`appliance exited early (code ${code}):\n${output().slice(-30).join('\n')}`);
    }),
  ]);

  return {
    baseUrl,
    api: new ApiClient(baseUrl),
    dataDir,
    databaseUrl,
    ports: { http, worker, smtp, submission, inject },
    env,
    internalToken,
    lines,
    process: child,
    async stop() {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const result = await exited;
      return { ...result, ms: Date.now() - started };
    },
    async kill() {
      // The supervisor leads its own process group (detached), so this reaches every child at once.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      await exited;
    },
  };
}
