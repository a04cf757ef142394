import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import type { Config } from '../config';
import { parseConfig, sqlitePath } from '../config';
import { probeSmtp } from '../mta/probe';

/**
 * Online backup and offline restore of DATA_DIR (`npm run ctl -- backup|restore`).
 *
 * A backup is a directory (or a .tar.gz of one) holding:
 *   manifest.json   what was taken, with a SHA-256 per file
 *   mail.db         the database, from SQLite's online backup API (consistent, WAL-safe)
 *   data/…          every other file of DATA_DIR: secret.key, mta-queue/, …
 *
 * Left out: the live database files (mail.db, -wal, -shm: the snapshot replaces
 * them), `mta/` (Haraka's configuration, rendered again at every start),
 * `backups/` and our own staging directories.
 *
 * The files are copied in two passes around the database snapshot, so a queue
 * file or inbound message written while the snapshot runs is still taken. What
 * can go wrong while the appliance keeps running errs towards delivering twice
 * (a message delivered during the backup is in the copied queue, and is sent
 * again after a restore); see docs/backup.md for the one narrow window.
 */

export const BACKUP_FORMAT = 'mailroom-backup';
export const BACKUP_VERSION = 1;
const MANIFEST = 'manifest.json';
const DB_FILE = 'mail.db';
const DATA_SUBDIR = 'data';
/** Haraka's temp files (`__tmp__.<name>`): incomplete, deleted by Haraka at start. */
const HARAKA_TMP_PREFIX = '__tmp__.';
const QUEUE_DIR = 'mta-queue';
/** Top-level entries of DATA_DIR never copied. */
const EXCLUDED_TOP = new Set(['mta', 'backups']);
const STAGING_PREFIXES = ['.backup-staging-', '.restore-staging-', 'pre-restore-'];
/** Never part of the data: a file system's own directory at the root of a fresh volume. */
const IGNORED_TOP = new Set(['lost+found']);

export interface BackupFile {
  /** Relative to DATA_DIR, `/`-separated. */
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  /** Permission bits (e.g. 0o600 = 384). */
  readonly mode: number;
}

export interface BackupManifest {
  readonly format: typeof BACKUP_FORMAT;
  readonly version: number;
  readonly createdAt: string;
  readonly mailroomVersion: string;
  readonly hostname: string;
  readonly dataDir: string;
  readonly database: { readonly file: string; readonly bytes: number; readonly sha256: string };
  /**
   * Where the master secret came from. `env`: SECRET_KEY was set, so the backup
   * does not contain it and a restore needs the same value. The fingerprint is a
   * one-way hash, to tell whether a restore runs with the same key.
   */
  readonly secretKey: { readonly source: 'file' | 'env' | 'missing'; readonly fingerprint: string | null };
  readonly files: readonly BackupFile[];
  /** Files that disappeared between listing and copying (a queue file delivered meanwhile). */
  readonly vanished: readonly string[];
}

export type Log = (line: string) => void;

// ---------------------------------------------------------------- pure helpers

/** `20250102T030405Z`: sortable, no characters a file system or tar dislikes. */
export function backupStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

export function defaultBackupName(date: Date): string {
  return `mailroom-backup-${backupStamp(date)}`;
}

/** A one-way fingerprint of the master secret (safe to store next to the backup). */
export function secretFingerprint(secret: string): string {
  return crypto
    .createHash('sha256')
    .update(`mailroom-secret-fingerprint\0${secret}`)
    .digest('hex')
    .slice(0, 16);
}

export type BackupTarget =
  | { readonly kind: 'stdout' }
  | { readonly kind: 'archive'; readonly file: string }
  | { readonly kind: 'directory'; readonly dir: string };

/** `-` streams a tar.gz to stdout; `*.tar.gz`/`*.tgz` writes one; anything else is a new directory. */
export function backupTarget(dest: string): BackupTarget {
  if (dest === '-') return { kind: 'stdout' };
  const resolved = path.resolve(dest);
  if (/\.(tar\.gz|tgz)$/i.test(dest)) return { kind: 'archive', file: resolved };
  return { kind: 'directory', dir: resolved };
}

/** True when `child` is `parent` or inside it (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether a DATA_DIR entry (relative, `/`-separated) is copied into a backup.
 * `dbFiles` are the live database files when they lie inside DATA_DIR.
 */
export function isBackedUp(rel: string, dbFiles: ReadonlySet<string>): boolean {
  const parts = rel.split('/');
  const top = parts[0] ?? '';
  if (EXCLUDED_TOP.has(top) || IGNORED_TOP.has(top)) return false;
  if (STAGING_PREFIXES.some((p) => top.startsWith(p))) return false;
  if (dbFiles.has(rel)) return false;
  const base = parts[parts.length - 1] ?? '';
  if (top === QUEUE_DIR && base.startsWith(HARAKA_TMP_PREFIX)) return false;
  return true;
}

/**
 * Haraka names a queue file `arrival_nextattempt_attempts_pid_uid_counter_host`
 * and renames it on every deferral (new next attempt, attempt count, counter).
 * `arrival_uid` names the message across renames.
 */
export function queueFileIdentity(
  name: string,
): { readonly id: string; readonly attempts: number; readonly nextAttempt: number } | null {
  const p = name.split('_');
  if (p.length !== 7) return null;
  const [arrival, next, attempts, , uid] = p;
  if (!/^\d+$/.test(arrival ?? '') || !/^\d+$/.test(next ?? '') || !/^\d+$/.test(attempts ?? '')) return null;
  return { id: `${arrival}_${uid}`, attempts: Number(attempts), nextAttempt: Number(next) };
}

/**
 * Queue files of one message copied under two names (Haraka deferred it between
 * the passes): keep the latest state, so the message is not delivered twice
 * after a restore. Returns the relative paths to drop.
 */
export function supersededQueueFiles(paths: readonly string[]): string[] {
  const latest = new Map<string, { path: string; attempts: number; nextAttempt: number }>();
  const drop: string[] = [];
  for (const p of paths) {
    if (!p.startsWith(`${QUEUE_DIR}/`)) continue;
    const ident = queueFileIdentity(p.slice(QUEUE_DIR.length + 1));
    if (ident === null) continue;
    const seen = latest.get(ident.id);
    if (seen === undefined) {
      latest.set(ident.id, { path: p, attempts: ident.attempts, nextAttempt: ident.nextAttempt });
      continue;
    }
    const newer =
      ident.attempts > seen.attempts ||
      (ident.attempts === seen.attempts && ident.nextAttempt > seen.nextAttempt);
    if (newer) {
      drop.push(seen.path);
      latest.set(ident.id, { path: p, attempts: ident.attempts, nextAttempt: ident.nextAttempt });
    } else {
      drop.push(p);
    }
  }
  return drop;
}

/** A manifest path must stay inside DATA_DIR: relative, no `..`, no empty or odd segments. */
export function isSafeRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Checks a parsed manifest.json; returns it typed, or throws naming the first problem. */
export function validateManifest(value: unknown): BackupManifest {
  const fail = (why: string): never => {
    throw new Error(`not a usable Mailroom backup: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('manifest.json is not an object');
  const m = value as Record<string, unknown>;
  if (m.format !== BACKUP_FORMAT) return fail(`format is ${JSON.stringify(m.format)}`);
  if (typeof m.version !== 'number' || m.version < 1) return fail('no version');
  if (m.version > BACKUP_VERSION)
    return fail(`version ${m.version} is newer than this Mailroom understands (${BACKUP_VERSION})`);
  const db = m.database as Record<string, unknown> | undefined;
  if (
    db?.file !== DB_FILE ||
    typeof db.bytes !== 'number' ||
    typeof db.sha256 !== 'string' ||
    !HEX64.test(db.sha256)
  )
    return fail('database entry missing or malformed');
  const secret = m.secretKey as Record<string, unknown> | undefined;
  if (!secret || !['file', 'env', 'missing'].includes(secret.source as string))
    return fail('secretKey entry missing');
  if (!Array.isArray(m.files)) return fail('files list missing');
  const seen = new Set<string>();
  for (const f of m.files as unknown[]) {
    const file = f as Record<string, unknown>;
    if (typeof file.path !== 'string' || !isSafeRelativePath(file.path))
      return fail(`unsafe or missing file path ${JSON.stringify(file.path)}`);
    if (seen.has(file.path)) return fail(`duplicate file ${file.path}`);
    seen.add(file.path);
    if (typeof file.bytes !== 'number' || typeof file.sha256 !== 'string' || !HEX64.test(file.sha256))
      return fail(`file ${file.path}: size or hash missing`);
    if (typeof file.mode !== 'number' || file.mode < 0 || file.mode > 0o777)
      return fail(`file ${file.path}: bad mode`);
  }
  return value as BackupManifest;
}

// ---------------------------------------------------------------- file helpers

async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function fsyncPath(p: string): Promise<void> {
  const handle = await fsp.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isErrno(err: unknown, ...codes: string[]): boolean {
  return codes.includes((err as NodeJS.ErrnoException | null)?.code ?? '');
}

/** Regular files under `root` (relative, `/`-separated), skipping what `keep` refuses. Tolerates races. */
async function listFiles(root: string, keep: (rel: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relDir: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(root, relDir), { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return;
      throw err;
    }
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (!keep(rel)) continue;
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  await walk('');
  return out.sort();
}

/** Copies one file, fsyncs it, hashes the copy. `null` when the source vanished meanwhile. */
async function copyOne(
  from: string,
  to: string,
): Promise<{ bytes: number; sha256: string; mode: number } | null> {
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(from);
    await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await fsp.copyFile(from, to);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw err;
  }
  const mode = stat.mode & 0o777;
  await fsp.chmod(to, mode);
  await fsyncPath(to);
  const copied = await fsp.stat(to);
  return { bytes: copied.size, sha256: await sha256File(to), mode };
}

function mailroomVersion(): string {
  try {
    const pkg = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
    ) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function run(
  cmd: string,
  args: readonly string[],
  io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: [io.stdin ? 'pipe' : 'ignore', io.stdout ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => (stderr += d));
    if (io.stdin && child.stdin) {
      // tar failing early closes its stdin: that surfaces as its exit code, not as an EPIPE crash.
      child.stdin.on('error', () => undefined);
      io.stdin.pipe(child.stdin);
    }
    if (io.stdout && child.stdout) child.stdout.pipe(io.stdout, { end: false });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${String(code)}: ${stderr.trim()}`));
    });
  });
}

// ---------------------------------------------------------------- database

/**
 * SQLite's online backup API: a consistent copy of the database while the
 * appliance writes to it. One step copies every page inside one read
 * transaction (WAL: writers are not blocked, and a restart on concurrent writes
 * cannot loop). The copy is then made self-contained (rollback journal mode, no
 * -wal beside it) and checked.
 */
export async function snapshotDatabase(
  dbFile: string,
  dest: string,
): Promise<{ bytes: number; sha256: string }> {
  if (!fs.existsSync(dbFile)) throw new Error(`no database at ${dbFile} (has the appliance ever started?)`);
  const source = new BetterSqlite3(dbFile, { fileMustExist: true, timeout: 10_000 });
  try {
    await source.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new BetterSqlite3(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the database copy fails quick_check: ${String(check)}`);
  } finally {
    copy.close();
  }
  await fsyncPath(dest);
  return { bytes: (await fsp.stat(dest)).size, sha256: await sha256File(dest) };
}

/** The live database files, relative to DATA_DIR when they are inside it. */
function liveDbFiles(dataDir: string, dbFile: string): Set<string> {
  const out = new Set<string>();
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const f = `${dbFile}${suffix}`;
    if (isInside(dataDir, f)) out.add(path.relative(dataDir, f).split(path.sep).join('/'));
  }
  return out;
}

// ---------------------------------------------------------------- is it running?

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
  const dbFile = sqlitePath(config);
  if (databaseInUse(dbFile)) evidence.push(`${dbFile} is open in another process`);
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

// ---------------------------------------------------------------- backup

export interface BackupOptions {
  readonly config: Config;
  /** Directory to create, `*.tar.gz`, or `-` (tar.gz on `stdout`). Default: `$DATA_DIR/backups/<name>`. */
  readonly dest?: string | undefined;
  readonly stdout?: NodeJS.WritableStream;
  readonly log?: Log;
  readonly now?: Date;
}

export interface BackupResult {
  /** The directory or archive written; `-` for stdout. */
  readonly path: string;
  readonly format: 'directory' | 'tar.gz';
  readonly manifest: BackupManifest;
}

/** Copies DATA_DIR's files into `<backupDir>/data` (pass 1 and 2 share `copied`). */
async function copyPass(
  dataDir: string,
  backupDir: string,
  keep: (rel: string) => boolean,
  copied: Map<string, BackupFile>,
  vanished: Set<string>,
): Promise<void> {
  for (const rel of await listFiles(dataDir, keep)) {
    if (copied.has(rel)) continue;
    const result = await copyOne(path.join(dataDir, rel), path.join(backupDir, DATA_SUBDIR, rel));
    if (result === null) {
      vanished.add(rel);
      continue;
    }
    vanished.delete(rel);
    copied.set(rel, { path: rel, ...result });
  }
}

/** Writes a backup into the new directory `backupDir`. */
async function writeBackupDir(
  config: Config,
  backupDir: string,
  log: Log,
  now: Date,
): Promise<BackupManifest> {
  const dataDir = config.dataDir;
  const dbFile = sqlitePath(config);
  if (!fs.existsSync(dataDir)) throw new Error(`DATA_DIR ${dataDir} does not exist`);
  await fsp.mkdir(backupDir, { recursive: false, mode: 0o700 });
  const dbFiles = liveDbFiles(dataDir, dbFile);
  const keep = (rel: string): boolean =>
    isBackedUp(rel, dbFiles) && !isInside(backupDir, path.join(dataDir, rel));
  const copied = new Map<string, BackupFile>();
  const vanished = new Set<string>();

  await copyPass(dataDir, backupDir, keep, copied, vanished);
  const started = Date.now();
  const database = await snapshotDatabase(dbFile, path.join(backupDir, DB_FILE));
  log(`database: ${database.bytes} bytes in ${Date.now() - started} ms (online backup)`);
  // Pass 2: files that appeared while the snapshot ran (a message queued meanwhile).
  await copyPass(dataDir, backupDir, keep, copied, vanished);
  for (const rel of supersededQueueFiles([...copied.keys()])) {
    await fsp.rm(path.join(backupDir, DATA_SUBDIR, rel), { force: true });
    copied.delete(rel);
  }

  const secretFile = path.join(dataDir, 'secret.key');
  let secretKey: BackupManifest['secretKey'];
  if (config.secretKey !== undefined) {
    secretKey = { source: 'env', fingerprint: secretFingerprint(config.secretKey) };
    log('SECRET_KEY is set in the environment: it is NOT in this backup; keep it in your secret store');
  } else if (copied.has('secret.key')) {
    secretKey = {
      source: 'file',
      fingerprint: secretFingerprint(fs.readFileSync(secretFile, 'utf8').trim()),
    };
  } else {
    secretKey = { source: 'missing', fingerprint: null };
    log('warning: no secret.key in DATA_DIR and no SECRET_KEY: sealed data in this backup cannot be opened');
  }

  const files = [...copied.values()].sort((a, b) => a.path.localeCompare(b.path));
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    mailroomVersion: mailroomVersion(),
    hostname: os.hostname(),
    dataDir,
    database: { file: DB_FILE, ...database },
    secretKey,
    files,
    vanished: [...vanished].sort(),
  };
  const manifestFile = path.join(backupDir, MANIFEST);
  await fsp.writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await fsyncPath(manifestFile);
  await fsyncPath(backupDir);
  const queued = files.filter((f) => f.path.startsWith(`${QUEUE_DIR}/`)).length;
  log(`files: ${files.length} (${queued} in the MTA queue), ${vanished.size} vanished during the copy`);
  return manifest;
}

/**
 * An online backup of DATA_DIR, safe while the appliance runs. See the module
 * comment for what is in it.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const name = defaultBackupName(now);
  const target = backupTarget(options.dest ?? path.join(config.dataDir, 'backups', name));

  if (target.kind === 'directory') {
    if (fs.existsSync(target.dir)) throw new Error(`${target.dir} already exists; name a new directory`);
    await fsp.mkdir(path.dirname(target.dir), { recursive: true, mode: 0o700 });
    const manifest = await writeBackupDir(config, target.dir, log, now);
    return { path: target.dir, format: 'directory', manifest };
  }

  // Archives are staged next to their destination (stdout: inside DATA_DIR, excluded from the copy).
  const stagingParent = target.kind === 'archive' ? path.dirname(target.file) : config.dataDir;
  if (target.kind === 'archive' && fs.existsSync(target.file))
    throw new Error(`${target.file} already exists; name a new file`);
  await fsp.mkdir(stagingParent, { recursive: true, mode: 0o700 });
  const staging = await fsp.mkdtemp(path.join(stagingParent, '.backup-staging-'));
  try {
    const manifest = await writeBackupDir(config, path.join(staging, name), log, now);
    if (target.kind === 'archive') {
      const partial = `${target.file}.partial`;
      await run('tar', ['-czf', partial, '-C', staging, name]);
      await fsp.chmod(partial, 0o600);
      await fsyncPath(partial);
      await fsp.rename(partial, target.file);
      return { path: target.file, format: 'tar.gz', manifest };
    }
    await run('tar', ['-czf', '-', '-C', staging, name], { stdout: options.stdout ?? process.stdout });
    return { path: '-', format: 'tar.gz', manifest };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- restore

export interface RestoreOptions {
  readonly config: Config;
  /** A backup directory, a `.tar.gz`, or `-` (a tar.gz on `stdin`). */
  readonly source: string;
  /** Move existing data aside instead of refusing; accept a different SECRET_KEY. */
  readonly force?: boolean;
  readonly stdin?: NodeJS.ReadableStream;
  readonly log?: Log;
  readonly now?: Date;
}

export interface RestoreResult {
  readonly dataDir: string;
  readonly database: string;
  readonly files: number;
  /** Where the data that was in DATA_DIR went (with --force), if any. */
  readonly movedAside: string | null;
  readonly manifest: BackupManifest;
  readonly warnings: readonly string[];
}

/** The backup directory inside an extracted archive: the one directory holding manifest.json. */
async function findBackupRoot(dir: string): Promise<string> {
  if (fs.existsSync(path.join(dir, MANIFEST))) return dir;
  const dirs = (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  const candidates = dirs
    .map((d) => path.join(dir, d.name))
    .filter((d) => fs.existsSync(path.join(d, MANIFEST)));
  if (candidates.length !== 1 || candidates[0] === undefined)
    throw new Error('the archive holds no single backup directory with a manifest.json');
  return candidates[0];
}

/** Reads and verifies a backup directory: manifest, every file's size and hash, the database's integrity. */
export async function verifyBackup(backupDir: string): Promise<BackupManifest> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fsp.readFile(path.join(backupDir, MANIFEST), 'utf8'));
  } catch (err) {
    throw new Error(`${backupDir}: no readable manifest.json (${(err as Error).message})`, { cause: err });
  }
  const manifest = validateManifest(raw);
  const check = async (file: string, bytes: number, sha256: string, label: string): Promise<void> => {
    let size: number;
    try {
      size = (await fsp.stat(file)).size;
    } catch {
      throw new Error(`backup is incomplete: ${label} is missing`);
    }
    if (size !== bytes)
      throw new Error(`backup is damaged: ${label} has ${size} bytes, the manifest says ${bytes}`);
    if ((await sha256File(file)) !== sha256) throw new Error(`backup is damaged: ${label} fails its SHA-256`);
  };
  const dbCopy = path.join(backupDir, DB_FILE);
  await check(dbCopy, manifest.database.bytes, manifest.database.sha256, DB_FILE);
  for (const f of manifest.files)
    await check(path.join(backupDir, DATA_SUBDIR, f.path), f.bytes, f.sha256, f.path);
  const db = new BetterSqlite3(dbCopy, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`backup database fails quick_check: ${String(result)}`);
  } finally {
    db.close();
  }
  return manifest;
}

/** What in DATA_DIR (and the database) a restore would replace. */
function existingData(dataDir: string, dbFile: string): string[] {
  const found: string[] = [];
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    if (fs.existsSync(`${dbFile}${suffix}`)) found.push(`${dbFile}${suffix}`);
  if (fs.existsSync(dataDir)) {
    for (const entry of fs.readdirSync(dataDir)) {
      const full = path.join(dataDir, entry);
      if (found.includes(full)) continue;
      if (STAGING_PREFIXES.some((p) => entry.startsWith(p)) || entry === 'backups' || IGNORED_TOP.has(entry))
        continue;
      found.push(full);
    }
  }
  return found;
}

async function copyInto(from: string, to: string, mode: number): Promise<void> {
  await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  const tmp = `${to}.restoring`;
  await fsp.copyFile(from, tmp);
  await fsp.chmod(tmp, mode);
  await fsyncPath(tmp);
  await fsp.rename(tmp, to);
}

/**
 * Run as root (a one-off `docker run --user root`, a host's root shell), a restore
 * hands what it wrote to DATA_DIR's owner, so the appliance's user can open it.
 */
async function chownLikeDataDir(dataDir: string): Promise<void> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  const { uid, gid } = await fsp.stat(dataDir);
  if (uid === 0) return;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      await fsp.lchown(p, uid, gid);
      if (entry.isDirectory()) await walk(p);
    }
  };
  await walk(dataDir);
}

/**
 * Restores a backup into DATA_DIR. Refuses while the appliance runs (database
 * lock, our listeners), into a DATA_DIR that already holds data unless `force`
 * (which moves that data into `DATA_DIR/pre-restore-<stamp>/`), and with a
 * SECRET_KEY other than the backup's unless `force`.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const dataDir = config.dataDir;
  const dbFile = sqlitePath(config);
  const warnings: string[] = [];
  const warn = (w: string): void => {
    warnings.push(w);
    log(`warning: ${w}`);
  };

  const refuseIfRunning = async (): Promise<readonly string[]> => {
    const activity = await detectRunningAppliance(config);
    if (activity.running)
      throw new Error(`the appliance is running (${activity.evidence.join('; ')}): stop it before restoring`);
    return activity.foreign;
  };
  await refuseIfRunning();

  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const opened = await openBackup(options.source, dataDir, options.stdin);
  try {
    const backupDir = opened.dir;

    const manifest = await verifyBackup(backupDir);
    log(
      `backup of ${manifest.createdAt} (Mailroom ${manifest.mailroomVersion}, ${manifest.files.length} files) verified`,
    );

    // Again, right before writing: it may have been started while the backup was read.
    for (const f of await refuseIfRunning()) warn(`another service on a Mailroom port: ${f}`);

    const current = config.secretKey !== undefined ? secretFingerprint(config.secretKey) : null;
    if (
      current !== null &&
      manifest.secretKey.fingerprint !== null &&
      current !== manifest.secretKey.fingerprint
    ) {
      const msg =
        'SECRET_KEY differs from the key the backup was taken with: sealed DKIM keys and webhook secrets would not open';
      if (!options.force) throw new Error(`${msg} (--force to restore anyway)`);
      warn(msg);
    }
    if (manifest.secretKey.source === 'env' && current === null)
      warn(
        'the backup was taken with SECRET_KEY set and holds no secret.key: set the same SECRET_KEY before starting',
      );
    if (manifest.secretKey.source === 'missing') warn('the backup holds no master secret');

    let movedAside: string | null = null;
    const existing = existingData(dataDir, dbFile);
    if (existing.length > 0) {
      if (!options.force)
        throw new Error(
          `DATA_DIR already holds data (${existing.map((e) => path.basename(e)).join(', ')}): ` +
            'pass --force to move it aside into DATA_DIR/pre-restore-<time>/ and restore',
        );
      movedAside = path.join(dataDir, `pre-restore-${backupStamp(now)}`);
      await fsp.mkdir(movedAside, { mode: 0o700 });
      for (const p of existing) {
        const dest = isInside(dataDir, p)
          ? path.join(movedAside, path.relative(dataDir, p))
          : path.join(movedAside, 'database', path.basename(p));
        await fsp.mkdir(path.dirname(dest), { recursive: true, mode: 0o700 });
        await fsp.rename(p, dest);
      }
      log(`moved the existing data aside into ${movedAside}`);
    }

    const restored: string[] = [];
    for (const f of manifest.files) {
      const to = path.join(dataDir, ...f.path.split('/'));
      await copyInto(path.join(backupDir, DATA_SUBDIR, f.path), to, f.path === 'secret.key' ? 0o600 : f.mode);
      restored.push(to);
    }
    // A -wal left beside a restored database would be replayed into it: none may exist now.
    for (const suffix of ['-wal', '-shm', '-journal']) await fsp.rm(`${dbFile}${suffix}`, { force: true });
    await copyInto(path.join(backupDir, DB_FILE), dbFile, 0o600);
    restored.push(dbFile);
    for (const dir of new Set(restored.map((p) => path.dirname(p)))) await fsyncPath(dir);
    await chownLikeDataDir(dataDir);
    if (!isInside(dataDir, dbFile)) await chownLikeDataDir(path.dirname(dbFile));
    log(`restored ${manifest.files.length} files and the database into ${dataDir}`);
    return { dataDir, database: dbFile, files: manifest.files.length, movedAside, manifest, warnings };
  } finally {
    await opened.close();
  }
}

/**
 * A backup directory to read: the source itself, or an archive (a file or `-`,
 * stdin) extracted into a staging directory under `stagingParent`.
 */
async function openBackup(
  source: string,
  stagingParent: string,
  stdin: NodeJS.ReadableStream | undefined,
): Promise<{ dir: string; close: () => Promise<void> }> {
  if (source !== '-' && !/\.(tar\.gz|tgz)$/i.test(source)) {
    const dir = path.resolve(source);
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`${dir} is not a backup directory or a .tar.gz`);
    return { dir, close: () => Promise.resolve() };
  }
  const staging = await fsp.mkdtemp(path.join(stagingParent, '.restore-staging-'));
  const close = (): Promise<void> => fsp.rm(staging, { recursive: true, force: true });
  try {
    const archive = source === '-' ? '-' : path.resolve(source);
    await run(
      'tar',
      ['-xzf', archive, '-C', staging, '--no-same-owner'],
      source === '-' ? { stdin: stdin ?? process.stdin } : {},
    );
    return { dir: await findBackupRoot(staging), close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Checks a backup without restoring it (no DATA_DIR, no running check): the
 * manifest, every file's SHA-256, and the database's integrity.
 */
export async function checkBackup(source: string, stdin?: NodeJS.ReadableStream): Promise<BackupManifest> {
  const opened = await openBackup(source, os.tmpdir(), stdin);
  try {
    return await verifyBackup(opened.dir);
  } finally {
    await opened.close();
  }
}

// ---------------------------------------------------------------- CLI

export const BACKUP_USAGE = `  backup [DEST] [--json]                     online backup of DATA_DIR, safe while running:
                                             DEST a new directory (default DATA_DIR/backups/<time>),
                                             a *.tar.gz file, or - for a tar.gz on stdout
  restore SOURCE [--force] [--json]          restore a backup directory, *.tar.gz or - (stdin) into
                                             DATA_DIR; the appliance must be stopped; --force moves
                                             existing data aside (DATA_DIR/pre-restore-<time>/)
  restore SOURCE --verify-only               check a backup (hashes, database integrity); writes nothing`;

/** `ctl backup …`: returns the exit code. Progress goes to stderr (stdout may carry the archive). */
export async function backupCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length > 1) throw new Error(`backup takes one destination\n${BACKUP_USAGE}`);
  const dest = positionals[0];
  if (dest === '-' && values.json)
    throw new Error('--json cannot be combined with - (stdout carries the archive)');
  const log: Log = (line) => process.stderr.write(`backup: ${line}\n`);
  const config = parseConfig();
  const result = await createBackup({ config, dest, log });
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ path: result.path, format: result.format, manifest: result.manifest }, null, 2)}\n`,
    );
  } else {
    log(`written: ${result.path === '-' ? 'stdout' : result.path}`);
    if (result.path !== '-' && isInside(config.dataDir, result.path))
      log('this copy is on the same disk as DATA_DIR: copy it somewhere else');
  }
  return 0;
}

/** `ctl restore …`: returns the exit code. */
export async function restoreCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'verify-only': { type: 'boolean', default: false },
    },
  });
  const source = positionals[0];
  if (source === undefined || positionals.length > 1)
    throw new Error(`restore takes one source\n${BACKUP_USAGE}`);
  if (values['verify-only']) {
    const manifest = await checkBackup(source);
    process.stdout.write(
      values.json
        ? `${JSON.stringify(manifest, null, 2)}\n`
        : `backup of ${manifest.createdAt} (Mailroom ${manifest.mailroomVersion}): ${manifest.files.length} files and the database verified\n`,
    );
    return 0;
  }
  const log: Log = (line) => process.stderr.write(`restore: ${line}\n`);
  const result = await restoreBackup({ config: parseConfig(), source, force: values.force, log });
  if (values.json) {
    const { manifest, ...rest } = result;
    process.stdout.write(`${JSON.stringify({ ...rest, createdAt: manifest.createdAt }, null, 2)}\n`);
  } else {
    process.stdout.write(`restored the backup of ${result.manifest.createdAt} into ${result.dataDir}\n`);
  }
  return 0;
}
