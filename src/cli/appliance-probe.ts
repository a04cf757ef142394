import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import type { Config } from '../config';
import { databaseKind, sqlitePath } from '../config';
import { probeSmtp } from '../mta/probe';

export interface Listener {
  readonly env: string;
  readonly host: string;
  readonly port: number;
  readonly kind: 'http' | 'smtp';
}

/** Where a wildcard bind can be reached from this host. */
export function connectHost(bindAddress: string): string {
  return bindAddress === '0.0.0.0' || bindAddress === '::' || bindAddress === '' ? '127.0.0.1' : bindAddress;
}

/** Every port the appliance listens on, from the configuration. */
export function applianceListeners(config: Config): Listener[] {
  const host = config.bindAddress;
  const out: Listener[] = [
    { env: 'PORT', host, port: config.port, kind: 'http' },
    { env: 'WORKER_PORT', host, port: config.workerPort, kind: 'http' },
    { env: 'SMTP_PORT', host, port: config.smtpPort, kind: 'smtp' },
  ];
  if (config.submissionPort !== 0)
    out.push({ env: 'SUBMISSION_PORT', host, port: config.submissionPort, kind: 'smtp' });
  // 0: chosen at each start (src/boot.ts), so there is no fixed port to look at. Only the
  // deprecated OUTBOUND_SENDER=haraka opens it (src/mta/render-config.ts harakaDelivers).
  if (config.injectPort !== 0 && config.outboundSender === 'haraka')
    out.push({ env: 'MTA_INJECT_PORT', host: '127.0.0.1', port: config.injectPort, kind: 'smtp' });
  return out;
}

export type ListenerState =
  | { readonly state: 'free' }
  | { readonly state: 'ours'; readonly detail: string }
  | { readonly state: 'foreign'; readonly detail: string };

/** First word of a 220 greeting: the server's name. */
export function greetingName(banner: string): string | null {
  const m = /^220[ -](\S+)/.exec(banner);
  return m?.[1]?.toLowerCase() ?? null;
}

/**
 * Is something answering on this listener, and is it Mailroom? HTTP: `/health`
 * answers `{"status":"ok"}`. SMTP: a 220 greeting naming MAIL_HOSTNAME. Bounded
 * by `timeoutMs` per step; never rejects.
 */
export async function probeListener(
  listener: Listener,
  mailHostname: string,
  timeoutMs = 1500,
): Promise<ListenerState> {
  const host = connectHost(listener.host);
  const open = await tcpOpen(host, listener.port, timeoutMs);
  if (!open) return { state: 'free' };
  const where = `${host}:${listener.port}`;
  if (listener.kind === 'http') {
    const health = await getHealth(host, listener.port, timeoutMs);
    if ('error' in health)
      return { state: 'foreign', detail: `${where} accepts connections but /health failed: ${health.error}` };
    if (health.status === 200 && health.body?.status === 'ok')
      return { state: 'ours', detail: `${where} answers /health` };
    return { state: 'foreign', detail: `${where} answers HTTP ${health.status} on /health` };
  }
  const probe = await probeSmtp(host, listener.port, timeoutMs);
  if (!probe.ok) return { state: 'foreign', detail: `${where} accepts connections: ${probe.error}` };
  const name = greetingName(probe.banner);
  return name === mailHostname.toLowerCase()
    ? { state: 'ours', detail: `${where} greets as ${name}` }
    : { state: 'foreign', detail: `${where} greets as ${name ?? probe.banner}` };
}

/**
 * GET /health on a connection of its own (no keep-alive pool: a peer that is not
 * HTTP must not leave a socket behind that keeps the CLI alive), bounded by `timeoutMs`.
 */
export function getHealth(
  host: string,
  port: number,
  timeoutMs: number,
): Promise<{ status: number; body: { status?: unknown } | null } | { error: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (
      value: { status: number; body: { status?: unknown } | null } | { error: string },
    ): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(value);
    };
    const req = http.get(
      { host, port, path: '/health', agent: false, headers: { connection: 'close' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
          if (text.length > 4096) finish({ error: 'oversized /health answer' });
        });
        res.on('end', () => {
          finish({ status: res.statusCode ?? 0, body: parseJsonObject(text) });
        });
        res.on('error', (err) => finish({ error: err.message }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
    const timer = setTimeout(() => finish({ error: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
}

function parseJsonObject(text: string): { status?: unknown } | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** A TCP connect within `timeoutMs`: true when something accepted it. */
export function tcpOpen(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (result: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Whether another process has the database open. Every appliance process opens
 * it in WAL mode and keeps it open, which holds a shared lock; a connection in
 * exclusive locking mode cannot then take its exclusive lock (SQLITE_BUSY).
 * Works across containers sharing the volume (same kernel, same file locks).
 */
export function databaseInUse(dbFile: string): boolean {
  if (!fs.existsSync(dbFile)) return false;
  const db = new BetterSqlite3(dbFile, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    db.close();
  }
}

export interface Activity {
  readonly running: boolean;
  /** Why we think Mailroom is running. */
  readonly evidence: readonly string[];
  /** Something else on one of our ports (not evidence that Mailroom runs). */
  readonly foreign: readonly string[];
}

/** Is the appliance running on this DATA_DIR / these ports? Database lock first, then the listeners. */
export async function detectRunningAppliance(config: Config, timeoutMs = 1500): Promise<Activity> {
  const evidence: string[] = [];
  const foreign: string[] = [];
  // A SQLite file open elsewhere is this host's appliance; a PostgreSQL server is shared by
  // every node, so only the listeners say whether one runs here.
  if (databaseKind(config.databaseUrl) === 'sqlite') {
    const dbFile = sqlitePath(config);
    if (databaseInUse(dbFile)) evidence.push(`${dbFile} is open in another process`);
  }
  const states = await Promise.all(
    applianceListeners(config).map(async (l) => ({
      l,
      s: await probeListener(l, config.mailHostname, timeoutMs),
    })),
  );
  for (const { l, s } of states) {
    if (s.state === 'ours') evidence.push(`${l.env}: ${s.detail}`);
    if (s.state === 'foreign') foreign.push(`${l.env}: ${s.detail}`);
  }
  return { running: evidence.length > 0, evidence, foreign };
}
