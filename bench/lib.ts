// Shared pieces of the benchmark scenarios: statistics, machine facts, process RSS, an HTTP
// load client, the appliance with an account and a verified domain, and private Postfix
// instances (installed from Debian's package when missing, never the system one).
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Appliance, ApplianceOptions } from '../test/helpers/appliance';
import { startAppliance } from '../test/helpers/appliance';
import type { FakeDns } from '../test/helpers/dns-server';
import { startDnsServer } from '../test/helpers/dns-server';
import { freePorts } from '../test/helpers/free-port';
import { addVerifiedDomain } from '../test/helpers/verified-domain';

/** dist/bench/lib.js → the repository root is two levels up. */
export const REPO = path.resolve(__dirname, '..', '..');
export const WORK = path.join(REPO, 'bench', '.work');

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

// ---------------------------------------------------------------- statistics

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export function sortNum(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

export interface Spread {
  min: number;
  median: number;
  max: number;
  n: number;
}

export function spread(xs: readonly number[]): Spread {
  const s = sortNum(xs.filter((x) => Number.isFinite(x)));
  if (s.length === 0) return { min: NaN, median: NaN, max: NaN, n: 0 };
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  return { min: s[0] ?? NaN, median, max: s[s.length - 1] ?? NaN, n: s.length };
}

export function fmt(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "median (min – max)". */
export function fmtSpread(s: Spread, digits = 1): string {
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)} – ${fmt(s.max, digits)})`;
}

// ---------------------------------------------------------------- machine and processes

export function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return 'unknown';
  }
}

export function machineInfo(): Record<string, string> {
  const cpus = os.cpus();
  return {
    CPU: cpus[0]?.model ?? 'unknown',
    'Cores (logical)': String(cpus.length),
    Memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    Kernel: `${os.type()} ${os.release()}`,
    Node: process.version,
    Postfix: sh('postconf', ['-h', 'mail_version']),
    'SQLite (better-sqlite3)': sqliteVersion(),
    'CPU probe at start (ms of CPU for a fixed workload, see cpuProbeMs in bench/lib.ts)': fmt(
      cpuProbeMs(),
      0,
    ),
    'Load average at start': os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  };
}

/**
 * The machine's speed right now, for comparing runs made at different times: CPU
 * time, in ms, of a fixed workload like the appliance's own (JSON of a ~5 KB request
 * body and SHA-256, 20,000 times). The same code measures slower in a run whose
 * probe is higher: the host is shared, and CPU time stretches when it is busy.
 */
export function cpuProbeMs(): number {
  const body = { from: 'a@b.test', to: ['c@d.test'], subject: 'probe', html: html5k(0) };
  const start = process.cpuUsage();
  for (let i = 0; i < 20_000; i++) {
    const text = JSON.stringify({ ...body, seq: i });
    crypto.createHash('sha256').update(text).digest('hex');
    JSON.parse(text);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function sqliteVersion(): string {
  try {
    const db = new Database(':memory:');
    const v = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
    db.close();
    return v;
  } catch {
    return 'unknown';
  }
}

/** VmRSS of one process in KiB (0 when gone). */
export function rssKiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used, in ms, from /proc/<pid>/stat (0 when gone). */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 (utime, stime) in clock ticks; Linux reports them at 100 Hz.
    return (Number(rest[11]) + Number(rest[12])) * 10;
  } catch {
    return 0;
  }
}

/** The process and all its descendants (from /proc/<pid>/stat ppid fields). */
export function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(rest[1]));
    } catch {
      /* exited */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  }
  return out;
}

export function processName(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3).join(' ');
  } catch {
    return '?';
  }
}

/** The entry file of each child the supervisor starts (src/supervisor.ts). */
const CHILD_ENTRIES: Record<string, string> = {
  api: '/dist/src/api/main.js',
  worker: '/dist/src/worker/main.js',
  mta: '/dist/src/mta/main.js',
};

/** pids of the supervisor's children by name, from /proc (their parent and command line). */
export function childPids(app: Appliance): Record<string, number> {
  const out: Record<string, number> = {};
  const sup = app.process.pid ?? 0;
  for (const pid of processTree(sup).slice(1)) {
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    for (const [name, entry] of Object.entries(CHILD_ENTRIES))
      if (argv.some((a) => a.endsWith(entry))) out[name] = pid;
  }
  return out;
}

/**
 * RSS in MiB of supervisor, api, worker and mta (Haraka runs inside the mta
 * process), and the sum over the supervisor's whole process tree.
 */
export function applianceRss(app: Appliance): Record<string, number> {
  const sup = app.process.pid ?? 0;
  const kids = childPids(app);
  const out: Record<string, number> = { supervisor: rssKiB(sup) / 1024 };
  for (const [name, pid] of Object.entries(kids)) out[name] = rssKiB(pid) / 1024;
  out.total = processTree(sup).reduce((a, p) => a + rssKiB(p), 0) / 1024;
  return out;
}

// ---------------------------------------------------------------- the appliance

export interface Bench {
  app: Appliance;
  dns: FakeDns;
  apiKey: string;
  token: string;
  domain: string;
  domainId: string;
  stop(): Promise<void>;
}

export const BENCH_ENV: Record<string, string> = {
  HTTP_RATE_LIMIT_PER_MINUTE: '100000000',
  AUTH_RATE_LIMIT_PER_15_MIN: '100000',
  RATE_LIMIT_EMAILS_PER_HOUR: '100000000',
  RATE_LIMIT_EMAILS_PER_DAY: '100000000',
  NEW_ACCOUNT_EMAILS_PER_HOUR: '100000000',
};

/** The appliance on ephemeral ports, a fake DNS, an account with an API key and a verified domain. */
export async function startBench(options: ApplianceOptions & { domain?: string } = {}): Promise<Bench> {
  const dns = await startDnsServer();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(WORK, 'data-'));
  const logFile = path.join(WORK, `appliance-${path.basename(dataDir)}.log`);
  const app = await startAppliance({
    // Logs to a file, as the Postfix baselines' maillog_file: a pipe read by this process's
    // event loop, busy generating load, filled up and held the appliance's log writes.
    logFile,
    ...options,
    dataDir,
    env: { ...BENCH_ENV, DNS_SERVERS: dns.address, ...options.env },
  });
  const account = await app.api.registerWithKey();
  const domain = options.domain ?? 'shop.example.com';
  const d = await addVerifiedDomain(app, dns, account.token, domain);
  return {
    app,
    dns,
    apiKey: account.apiKey,
    token: account.token,
    domain,
    domainId: d.id,
    async stop() {
      await app.stop();
      await dns.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(logFile, { force: true });
    },
  };
}

export function html5k(seq: number): string {
  const para = '<p>Thank you for your order. Your parcel is on its way and will arrive soon.</p>\n';
  return `<html><body><h1>Order ${seq}</h1>\n${para.repeat(62)}</body></html>`;
}

// ---------------------------------------------------------------- HTTP load client

export interface LoadResult {
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  latenciesMs: number[];
  elapsedMs: number;
}

export function request(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `connections` keep-alive connections, each sending requests back to back until `stopAt`
 * (epoch ms) or until `budget` requests were made in total. With `baseUrls` (several nodes),
 * connection i goes to `baseUrls[i % n]`, as a round-robin load balancer would.
 */
export async function runLoad(opts: {
  baseUrl: string;
  baseUrls?: readonly string[];
  connections: number;
  durationMs?: number;
  budget?: number;
  make: (seq: number) => { method: string; path: string; headers: Record<string, string>; body?: string };
  okStatus: number;
  onOk?: (seq: number, text: string, tSend: number, tDone: number) => void;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const bases = (opts.baseUrls ?? [opts.baseUrl]).map((u) => new URL(u));
  const started = performance.now();
  const stopAt = opts.durationMs === undefined ? Infinity : started + opts.durationMs;
  const budget = opts.budget ?? Infinity;
  let seq = 0;
  const res: LoadResult = { ok: 0, failed: 0, statuses: {}, latenciesMs: [], elapsedMs: 0 };
  const loop = async (connection: number): Promise<void> => {
    const base = bases[connection % bases.length];
    while (performance.now() < stopAt && seq < budget) {
      const n = seq++;
      const r = opts.make(n);
      const url = new URL(r.path, base);
      const t0 = performance.now();
      try {
        const out = await request(agent, url, r.method, r.headers, r.body);
        const t1 = performance.now();
        res.statuses[out.status] = (res.statuses[out.status] ?? 0) + 1;
        if (out.status === opts.okStatus) {
          res.ok++;
          res.latenciesMs.push(t1 - t0);
          opts.onOk?.(n, out.text, t0, t1);
        } else res.failed++;
      } catch (e) {
        res.failed++;
        const k = e instanceof Error ? e.message.slice(0, 40) : 'error';
        res.statuses[k] = (res.statuses[k] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, (_, i) => loop(i)));
  res.elapsedMs = performance.now() - started;
  agent.destroy();
  return res;
}

// ---------------------------------------------------------------- Postfix

const POSTFIX_BIN = '/usr/sbin/postfix';

/** Installs Debian's postfix when missing (its binaries only are used; no system instance is configured). */
export function ensurePostfix(): void {
  if (fs.existsSync(POSTFIX_BIN) && fs.existsSync('/usr/sbin/smtp-sink')) return;
  log('postfix missing: installing Debian package (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', 'postfix'], { stdio: 'inherit', env });
  // Debian's postinst may start a system instance: stop it, the bench only runs private ones.
  try {
    execFileSync(POSTFIX_BIN, ['stop'], { stdio: 'ignore' });
  } catch {
    /* not running */
  }
}

export interface PostfixInstance {
  readonly dir: string;
  readonly port: number;
  readonly maillog: string;
  start(): void;
  stop(): void;
  /** Lines of the private maillog. */
  logLines(): string[];
}

/** A private Postfix: config, queue and log under bench/.work/<name>, SMTP on 127.0.0.1:port. */
export function privatePostfix(
  name: string,
  port: number,
  mainExtra: Record<string, string>,
): PostfixInstance {
  const dir = path.join(WORK, name);
  fs.rmSync(dir, { recursive: true, force: true });
  const etc = path.join(dir, 'etc');
  fs.mkdirSync(etc, { recursive: true });
  const maillog = path.join(dir, 'maillog');
  const main: Record<string, string> = {
    compatibility_level: '3.6',
    queue_directory: path.join(dir, 'queue'),
    data_directory: path.join(dir, 'data'),
    command_directory: '/usr/sbin',
    daemon_directory: '/usr/lib/postfix/sbin',
    shlib_directory: '/usr/lib/postfix',
    meta_directory: '/etc/postfix',
    mail_owner: 'postfix',
    setgid_group: 'postdrop',
    inet_interfaces: '127.0.0.1',
    inet_protocols: 'ipv4',
    myhostname: 'postfix.bench.test',
    mydestination: '',
    mynetworks: '127.0.0.0/8',
    alias_maps: '',
    alias_database: '',
    local_recipient_maps: '',
    smtputf8_enable: 'no',
    smtpd_tls_security_level: 'none',
    smtp_tls_security_level: 'none',
    maillog_file: maillog,
    maillog_file_prefixes: `/var, /dev/stdout, ${WORK}`,
    smtpd_relay_restrictions: 'permit_mynetworks, reject',
    default_process_limit: '100',
    smtp_dns_support_level: 'disabled',
    disable_dns_lookups: 'yes',
    ...mainExtra,
  };
  fs.writeFileSync(
    path.join(etc, 'main.cf'),
    Object.entries(main)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n') + '\n',
  );
  // Debian's master.cf, with smtpd on our port and nothing chrooted.
  const master = fs
    .readFileSync('/etc/postfix/master.cf', 'utf8')
    .split('\n')
    .filter((l) => !/^(smtp|submission|smtps)\s+inet/.test(l))
    .map((l) => {
      const f = l.split(/\s+/);
      if (/^[a-z]/.test(l) && f.length >= 8 && f[4] === 'y') {
        f[4] = 'n';
        return f.join(' ');
      }
      return l;
    });
  master.unshift(`127.0.0.1:${port} inet n - n - - smtpd`);
  fs.writeFileSync(path.join(etc, 'master.cf'), master.join('\n') + '\n');
  const pf = (args: string[]): void => {
    execFileSync(POSTFIX_BIN, ['-c', etc, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  return {
    dir,
    port,
    maillog,
    start() {
      fs.mkdirSync(main.queue_directory ?? '', { recursive: true });
      fs.mkdirSync(main.data_directory ?? '', { recursive: true });
      const uid = Number(sh('id', ['-u', 'postfix']));
      const gid = Number(sh('id', ['-g', 'postfix']));
      if (Number.isInteger(uid) && Number.isInteger(gid)) fs.chownSync(main.data_directory ?? '', uid, gid);
      pf(['check']);
      pf(['start']);
    },
    stop() {
      try {
        pf(['stop']);
      } catch {
        /* not running */
      }
    },
    logLines() {
      try {
        return fs.readFileSync(maillog, 'utf8').split('\n');
      } catch {
        return [];
      }
    },
  };
}

/** Postfix's smtp-sink on 127.0.0.1:port (accepts everything, stores nothing). */
export function startSmtpSink(port: number): ChildProcess {
  const child = spawn('/usr/sbin/smtp-sink', ['-u', 'nobody', '-c', `127.0.0.1:${port}`, '1024'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

/** Postfix's smtp-source: `messages` messages of ~`bytes` over `sessions` parallel sessions. */
export function smtpSource(opts: {
  port: number;
  sessions: number;
  messages: number;
  bytes: number;
  from: string;
  to: string;
}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      '/usr/sbin/smtp-source',
      [
        '-d',
        '-s',
        String(opts.sessions),
        '-m',
        String(opts.messages),
        '-l',
        String(opts.bytes),
        '-f',
        opts.from,
        '-t',
        opts.to,
        '-M',
        'client.bench.test',
        `127.0.0.1:${opts.port}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

export async function ports(n: number): Promise<number[]> {
  return freePorts(n);
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, sleep(3000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
