import dns from 'node:dns';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { parseArgs } from 'node:util';
import type { Config, ConfigProblem } from '../config';
import { ConfigError, parseConfig, sqlitePath } from '../config';
import { hostPort } from '../config/parsers';
import { probeSmtp } from '../mta/probe';
import type { TlsPair } from '../mta/tls-files';
import { certificateCovers, readTlsPair } from '../mta/tls-files';
import { classifyDnsError, serverAddress } from '../shared/dns-resolver';
import type { Listener, ListenerState } from './backup';
import { applianceListeners, connectHost, databaseInUse, greetingName, probeListener } from './backup';

/**
 * `npm run ctl -- doctor [--json]`: checks the host the appliance runs on and
 * prints a readable report. Every network step has a short timeout; nothing
 * here can hang. Network checks go only where the configuration points
 * (DNS_SERVERS, SMTP_RELAY) or where a flag says.
 */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly status: CheckStatus;
  readonly summary: string;
  /** What to do about a warning or failure. */
  readonly hints: readonly string[];
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface DoctorReport {
  readonly generatedAt: string;
  readonly dataDir: string | null;
  readonly checks: readonly CheckResult[];
  readonly counts: Readonly<Record<CheckStatus, number>>;
  /** 1 when any check failed; warnings alone are 0. */
  readonly exitCode: number;
}

export interface DoctorOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** false: skip DNS, reverse DNS and the outbound probe (`--offline`). */
  readonly network?: boolean;
  /** Where to test outbound SMTP; default SMTP_RELAY, else the MX of `wellKnownDomain`. */
  readonly outboundProbe?: { readonly host: string; readonly port: number } | undefined;
  /** Whose MX stands in for "the internet" in the outbound probe. */
  readonly wellKnownDomain?: string;
  /** Connect and greeting timeout of the outbound probe, each. */
  readonly outboundTimeoutMs?: number;
  readonly dnsTimeoutMs?: number;
  /** Addresses to check reverse DNS for, besides MAIL_HOSTNAME's A/AAAA (e.g. a NAT's public IP). */
  readonly publicIps?: readonly string[];
  /** The host's own interface addresses (tests inject them). */
  readonly interfaceAddresses?: () => readonly string[];
  /** An http(s) URL whose `Date` header is the reference for the clock check. */
  readonly clockUrl?: string | undefined;
  readonly now?: () => number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

// ---------------------------------------------------------------- pure parts

function result(
  id: string,
  title: string,
  status: CheckStatus,
  summary: string,
  hints: readonly string[] = [],
  details?: Record<string, unknown>,
): CheckResult {
  return details === undefined
    ? { id, title, status, summary, hints }
    : { id, title, status, summary, hints, details };
}

const RANK: Record<CheckStatus, number> = { skip: 0, ok: 1, warn: 2, fail: 3 };

export function worst(statuses: readonly CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), 'ok');
}

export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/** Private, loopback, link-local, CGNAT, ULA … : addresses no remote receiver sees us by. */
const NON_PUBLIC = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  NON_PUBLIC.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  NON_PUBLIC.addSubnet(net6, bits, 'ipv6');

export function isPublicIp(ip: string): boolean {
  const family = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : null;
  if (family === null) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped !== undefined) return isPublicIp(mapped);
  return !NON_PUBLIC.check(ip, family);
}

/** Free space on DATA_DIR's file system: mail, queue and database all grow there. */
export function evaluateDisk(freeBytes: number, totalBytes: number, freeInodes?: number): CheckResult {
  const pct = totalBytes > 0 ? Math.round((freeBytes / totalBytes) * 100) : 0;
  const summary = `${formatBytes(freeBytes)} free of ${formatBytes(totalBytes)} (${pct} %)`;
  if (freeBytes < 256 * MiB)
    return result('disk', 'Disk space', 'fail', summary, [
      'Free space on the DATA_DIR volume: under 256 MiB the database and the MTA queue can no longer grow, and accepted mail is refused.',
    ]);
  if (freeInodes !== undefined && freeInodes < 10_000)
    return result('disk', 'Disk space', 'warn', `${summary}; only ${freeInodes} inodes left`, [
      'Each queued message is one file: free inodes on the DATA_DIR volume.',
    ]);
  if (freeBytes < 2 * GiB || pct < 10)
    return result('disk', 'Disk space', 'warn', summary, [
      'Plan more space for DATA_DIR: the database, inbound mail and the MTA queue live there.',
    ]);
  return result('disk', 'Disk space', 'ok', summary);
}

export function formatBytes(n: number): string {
  if (n >= GiB) return `${(n / GiB).toFixed(1)} GiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** DATA_DIR holds the master secret and every message: nobody else should read it. */
export function evaluateDataDirMode(
  dir: string,
  mode: number,
  ownerUid: number,
  processUid: number | null,
): { status: CheckStatus; notes: string[]; hints: string[] } {
  const notes = [`mode ${octal(mode)}`];
  const hints: string[] = [];
  let status: CheckStatus = 'ok';
  if ((mode & 0o077) !== 0) {
    status = 'warn';
    notes.push('readable by other users');
    hints.push(`chmod 700 ${dir}`);
  }
  if (processUid !== null && ownerUid !== processUid) {
    status = 'warn';
    notes.push(`owned by uid ${ownerUid}, not by this user (uid ${processUid})`);
    hints.push(
      `chown -R ${processUid} ${dir} (in the image the appliance runs as node, uid 1000; a bind mount must belong to it)`,
    );
  }
  return { status, notes, hints };
}

/** secret.key: present, private (0600), long enough. */
export function evaluateSecretFile(
  file: string,
  stat: { mode: number } | null,
  keyLength: number | null,
): CheckResult {
  const title = 'Master secret';
  if (stat === null)
    return result('secret_key', title, 'warn', `${file} does not exist yet`, [
      'The first start generates it (mode 0600). Back it up with the database: without it DKIM keys and webhook secrets cannot be opened.',
    ]);
  if ((stat.mode & 0o077) !== 0)
    return result('secret_key', title, 'fail', `${file} has mode ${octal(stat.mode)}`, [
      `chmod 600 ${file}: it is the master secret.`,
    ]);
  if (keyLength === null || keyLength < 32)
    return result('secret_key', title, 'fail', `${file} holds no usable key (under 32 characters)`, [
      'Restore it from a backup; a new key cannot open the data sealed with the old one.',
    ]);
  return result('secret_key', title, 'ok', `${file}, mode ${octal(stat.mode)}`, [
    'Keep a copy off this host: the backup command includes it (docs/backup.md).',
  ]);
}

export type PortState =
  | { readonly state: 'bindable' }
  | { readonly state: 'ours'; readonly detail: string }
  | { readonly state: 'foreign'; readonly detail: string }
  | { readonly state: 'denied'; readonly code: string };

export function evaluatePort(listener: Listener, state: PortState, uid: number | null): CheckResult {
  const where = `${listener.host}:${listener.port}`;
  const id = `port_${listener.env.toLowerCase()}`;
  const title = `Port ${listener.env}`;
  switch (state.state) {
    case 'bindable':
      return result(id, title, 'ok', `${where} is free and can be bound`);
    case 'ours':
      return result(id, title, 'ok', `${where} is served by Mailroom (running): ${state.detail}`);
    case 'foreign':
      return result(id, title, 'fail', `${where} is taken by another program: ${state.detail}`, [
        `Stop that program, or set ${listener.env} to another port.`,
      ]);
    case 'denied': {
      if (state.code === 'EACCES')
        return result(id, title, 'fail', `not allowed to bind ${where} as uid ${uid ?? '?'}`, [
          'Ports below 1024 need cap_net_bind_service on the node binary (the image sets it: setcap cap_net_bind_service=+ep $(command -v node)), root, or a port of 1024 and above.',
        ]);
      if (state.code === 'EADDRNOTAVAIL')
        return result(id, title, 'fail', `${listener.host} is not an address of this host`, [
          'Set BIND_ADDRESS to one of this host’s addresses, or 0.0.0.0.',
        ]);
      return result(id, title, 'fail', `cannot bind ${where}: ${state.code}`);
    }
  }
}

export interface PtrLookup {
  readonly ip: string;
  /** Names found; empty when none. */
  readonly names: readonly string[];
  /** Why there are no names: `nxdomain`, `nodata`, or a failure reason. */
  readonly problem?: string;
}

const norm = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/**
 * Reverse DNS vs MAIL_HOSTNAME (forward-confirmed reverse DNS): receivers check
 * that the connecting IP's PTR names a host whose A/AAAA leads back to that IP,
 * and often that it matches the HELO name (MAIL_HOSTNAME). Hints only.
 */
export function evaluateReverseDns(input: {
  readonly mailHostname: string;
  /** A and AAAA of MAIL_HOSTNAME. */
  readonly forward: readonly string[];
  /** Public addresses of this host (interfaces, --public-ip). */
  readonly local: readonly string[];
  readonly ptr: readonly PtrLookup[];
}): CheckResult {
  const title = 'Reverse DNS';
  const host = norm(input.mailHostname);
  const hints: string[] = [];
  const notes: string[] = [];
  let status: CheckStatus = 'ok';
  const forward = new Set(input.forward);
  if (input.forward.length === 0) {
    status = 'warn';
    hints.push(`Publish an A (and AAAA, if you send over IPv6) record for ${host} pointing at this host.`);
  }
  for (const lookup of input.ptr) {
    const names = lookup.names.map(norm);
    if (names.length === 0) {
      status = 'warn';
      notes.push(`${lookup.ip} has no PTR (${lookup.problem ?? 'none'})`);
      hints.push(
        `Ask whoever owns ${lookup.ip} (your hosting provider) to set its PTR to ${host}: many receivers refuse mail from addresses without one.`,
      );
    } else if (!names.includes(host)) {
      status = 'warn';
      notes.push(`${lookup.ip} → ${names.join(', ')}`);
      hints.push(`Set the PTR of ${lookup.ip} to ${host} (it is the name Mailroom says in HELO).`);
    } else {
      notes.push(`${lookup.ip} → ${host}${forward.has(lookup.ip) ? ' (forward-confirmed)' : ''}`);
    }
  }
  for (const ip of input.local) {
    if (input.forward.length > 0 && !forward.has(ip)) {
      status = 'warn';
      notes.push(`this host's address ${ip} is not an A/AAAA of ${host}`);
      hints.push(
        `If mail leaves from ${ip}, add it to ${host}'s A/AAAA records (and to the SPF include host); if this host sits behind NAT, pass its public address with --public-ip.`,
      );
    }
  }
  if (input.ptr.length === 0 && input.forward.length > 0 && input.local.length === 0)
    notes.push('no address to check');
  const summary = notes.length > 0 ? notes.join('; ') : `no public address known for ${host}`;
  return result('reverse_dns', title, status, summary, hints, {
    mailHostname: host,
    forward: input.forward,
    local: input.local,
    ptr: input.ptr,
  });
}

/**
 * The clock: TLS certificates, DKIM signature timestamps and session tokens all
 * depend on it. Without a reference only plausibility is checked: not before
 * `floorMs` (this build) and not absurdly late.
 */
export function evaluateClock(input: {
  readonly nowMs: number;
  readonly floorMs: number;
  readonly reference?:
    | { readonly source: string; readonly dateMs: number }
    | { readonly source: string; readonly error: string };
}): CheckResult {
  const title = 'Clock';
  const now = new Date(input.nowMs).toISOString();
  if (input.nowMs < input.floorMs)
    return result('clock', title, 'fail', `the clock says ${now}, before this build was made`, [
      'Set the system time and keep it synchronised (NTP: systemd-timesyncd, chrony).',
    ]);
  if (input.nowMs > Date.UTC(2100, 0, 1))
    return result('clock', title, 'fail', `the clock says ${now}`, ['Set the system time (NTP).']);
  const ref = input.reference;
  if (ref === undefined)
    return result('clock', title, 'ok', `${now} (plausible; pass --clock-url to compare with a server)`);
  if ('error' in ref)
    return result('clock', title, 'warn', `${now}; could not read the time from ${ref.source}: ${ref.error}`);
  // The Date header has a resolution of one second.
  const skewS = Math.round((input.nowMs - ref.dateMs) / 1000);
  const summary = `${now}, ${Math.abs(skewS)} s ${skewS >= 0 ? 'ahead of' : 'behind'} ${ref.source}`;
  if (Math.abs(skewS) > 300)
    return result('clock', title, 'fail', summary, [
      'Synchronise the clock (NTP): a skew of minutes breaks TLS, DKIM expiry and session tokens.',
    ]);
  if (Math.abs(skewS) > 30) return result('clock', title, 'warn', summary, ['Synchronise the clock (NTP).']);
  return result('clock', title, 'ok', summary);
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * The certificate every SMTP listener serves (STARTTLS, SMTPS): readable, the key
 * matching, not expired (warn under 14 days), naming MAIL_HOSTNAME. Senders to
 * the MX accept any certificate (RFC 7435), submission clients and MTA-STS do not.
 */
export function evaluateTls(input: {
  readonly source: 'configured' | 'self-signed';
  readonly certFile: string;
  readonly keyFile: string;
  /** Null: the self-signed pair is not generated yet. */
  readonly pair: TlsPair | null;
  readonly mailHostname: string;
  readonly nowMs: number;
}): CheckResult {
  const id = 'tls';
  const title = 'TLS certificate';
  const certbot =
    'For a certificate clients trust, point TLS_CERT_FILE/TLS_KEY_FILE at e.g. certbot’s /etc/letsencrypt/live/<host>/fullchain.pem and privkey.pem; renewals are picked up without a restart (docs/mta.md).';
  const { pair } = input;
  if (pair === null)
    return result(id, title, 'ok', `self-signed, generated for ${input.mailHostname} at the first start`, [
      certbot,
    ]);
  if (!pair.ok) {
    const where = `${input.certFile} / ${input.keyFile}`;
    return input.source === 'configured'
      ? result(id, title, 'fail', `TLS_CERT_FILE/TLS_KEY_FILE unusable: ${pair.reason}`, [
          `The MTA refuses to start with ${where}: make both readable by the appliance's user and make sure the key belongs to the certificate (the first certificate of the file).`,
        ])
      : result(id, title, 'fail', `self-signed pair unusable: ${pair.reason}`, [
          `Delete ${path.dirname(input.certFile)} and restart: a new self-signed certificate is generated.`,
        ]);
  }
  const c = pair.certificate;
  const notAfterMs = Date.parse(c.notAfter);
  const days = Math.floor((notAfterMs - input.nowMs) / DAY_MS);
  const names = c.names.length > 0 ? c.names.join(', ') : c.subject;
  const summary = `${input.source === 'self-signed' ? 'self-signed' : input.certFile} for ${names}, valid until ${c.notAfter}`;
  const details = { source: input.source, certFile: input.certFile, ...c };
  const hints: string[] = [];
  let status: CheckStatus = 'ok';
  let note = '';
  if (notAfterMs <= input.nowMs) {
    status = 'fail';
    note = ' — EXPIRED';
    hints.push(
      input.source === 'configured'
        ? 'Renew it (certbot renew); the new files are used within seconds, no restart needed.'
        : `Delete ${path.dirname(input.certFile)} and restart to generate a new one.`,
    );
  } else if (notAfterMs - input.nowMs < 14 * DAY_MS) {
    status = 'warn';
    note = ` — expires in ${days} day${days === 1 ? '' : 's'}`;
    hints.push('Renew it now (is certbot’s timer running?); renewed files are used without a restart.');
  }
  if (!certificateCovers(c.names, input.mailHostname)) {
    if (input.source === 'configured') {
      status = worst([status, 'warn']);
      hints.push(
        `It does not name MAIL_HOSTNAME ${input.mailHostname}: submission clients that verify will refuse it. Issue it for ${input.mailHostname} (or add it as a SAN).`,
      );
    } else {
      hints.push(
        `It was made for ${names}, not MAIL_HOSTNAME ${input.mailHostname}: delete ${path.dirname(input.certFile)} and restart to regenerate it.`,
      );
    }
  }
  if (c.selfSigned)
    hints.push(
      `Self-signed: MX senders accept it, but submission clients must skip verification. ${certbot}`,
    );
  return result(id, title, status, `${summary}${note}`, hints, details);
}

export function counts(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const out: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const c of checks) out[c.status] += 1;
  return out;
}

export function buildReport(
  dataDir: string | null,
  checks: readonly CheckResult[],
  nowMs: number,
): DoctorReport {
  const c = counts(checks);
  return {
    generatedAt: new Date(nowMs).toISOString(),
    dataDir,
    checks,
    counts: c,
    exitCode: c.fail > 0 ? 1 : 0,
  };
}

const LABEL: Record<CheckStatus, string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

/** The human report: one line per check, hints under it. */
export function formatReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.title.length), 10);
  const lines = [
    `Mailroom doctor, ${report.generatedAt}${report.dataDir ? ` (DATA_DIR ${report.dataDir})` : ''}`,
    '',
  ];
  for (const c of report.checks) {
    lines.push(`  ${LABEL[c.status].padEnd(4)}  ${c.title.padEnd(width)}  ${c.summary}`);
    if (c.status !== 'ok' || c.id === 'secret_key' || c.id === 'tls')
      for (const h of c.hints) lines.push(`  ${''.padEnd(4)}  ${''.padEnd(width)}  → ${h}`);
  }
  const n = report.counts;
  lines.push(
    '',
    `${n.ok} ok, ${n.warn} warning${n.warn === 1 ? '' : 's'}, ${n.fail} failure${n.fail === 1 ? '' : 's'}` +
      (n.skip > 0 ? `, ${n.skip} skipped` : ''),
  );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------- checks

function checkConfig(env: NodeJS.ProcessEnv): { config: Config | null; check: CheckResult } {
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const problems: readonly ConfigProblem[] = err.problems;
    return {
      config: null,
      check: result(
        'config',
        'Configuration',
        'fail',
        problems.map((p) => `${p.env}: ${p.problem}`).join('; '),
        ['Fix every key listed (docs/configuration.md); the appliance refuses to start until then.'],
      ),
    };
  }
  const hints: string[] = [];
  const given = (k: string): boolean => env[k] !== undefined && env[k] !== '';
  if (!given('MAIL_HOSTNAME'))
    hints.push(
      `MAIL_HOSTNAME is unset, so the OS host name "${config.mailHostname}" is used in the banner and HELO: set the public name of this mail host.`,
    );
  else if (!config.mailHostname.includes('.'))
    hints.push(`MAIL_HOSTNAME "${config.mailHostname}" is not a fully qualified name.`);
  if (!given('BASE_URL')) hints.push(`BASE_URL is unset (${config.baseUrl}): set the public URL of the API.`);
  if (config.internalApiToken === undefined)
    hints.push('INTERNAL_API_TOKEN is unset: /metrics and /internal/* answer 401.');
  return {
    config,
    check: result(
      'config',
      'Configuration',
      hints.length > 0 ? 'warn' : 'ok',
      `valid; MAIL_HOSTNAME ${config.mailHostname}, API ${config.baseUrl}`,
      hints,
    ),
  };
}

async function checkDataDir(config: Config): Promise<CheckResult> {
  const dir = config.dataDir;
  const title = 'DATA_DIR';
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(dir);
  } catch {
    const parent = path.dirname(dir);
    try {
      await fsp.access(parent, fs.constants.W_OK);
      return result('data_dir', title, 'warn', `${dir} does not exist yet; the first start creates it`);
    } catch {
      return result('data_dir', title, 'fail', `${dir} does not exist and ${parent} is not writable`, [
        `mkdir -p ${dir} and give it to the user the appliance runs as.`,
      ]);
    }
  }
  if (!stat.isDirectory()) return result('data_dir', title, 'fail', `${dir} is not a directory`);
  const probe = path.join(dir, `.doctor-${process.pid}`);
  try {
    const handle = await fsp.open(probe, 'wx', 0o600);
    await handle.write('ok');
    await handle.sync();
    await handle.close();
    await fsp.rm(probe, { force: true });
  } catch (err) {
    return result(
      'data_dir',
      title,
      'fail',
      `${dir} is not writable: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      [`Give ${dir} to uid ${uid ?? '?'} (chown -R), mode 700.`],
    );
  }
  const mode = evaluateDataDirMode(dir, stat.mode, stat.uid, uid);
  const details: Record<string, unknown> = { mode: octal(stat.mode), ownerUid: stat.uid };
  const notes = [`${dir} is writable`, ...mode.notes];
  const dbFile = sqlitePath(config);
  const db = fs.statSync(dbFile, { throwIfNoEntry: false });
  if (db === undefined) {
    notes.push('no database yet');
  } else {
    const wal = fs.statSync(`${dbFile}-wal`, { throwIfNoEntry: false });
    notes.push(`database ${formatBytes(db.size)}${wal ? ` (+ ${formatBytes(wal.size)} WAL)` : ''}`);
    try {
      details.databaseInUse = databaseInUse(dbFile);
    } catch (err) {
      details.databaseInUse = `unknown: ${(err as Error).message}`;
    }
  }
  const queueDir = path.join(dir, 'mta-queue');
  try {
    const queued = (await fsp.readdir(queueDir)).filter((f) => /^\d+_/.test(f)).length;
    notes.push(`${queued} message${queued === 1 ? '' : 's'} in the MTA queue`);
    details.queued = queued;
  } catch {
    /* not created yet */
  }
  return result('data_dir', title, mode.status, notes.join(', '), mode.hints, details);
}

async function checkSecret(config: Config): Promise<CheckResult> {
  const file = path.join(config.dataDir, 'secret.key');
  const stat = fs.statSync(file, { throwIfNoEntry: false }) ?? null;
  if (config.secretKey !== undefined) {
    const hints = ['Keep SECRET_KEY in your secret store: backups do not contain it.'];
    if (stat !== null) hints.push(`${file} exists but is ignored while SECRET_KEY is set.`);
    return result('secret_key', 'Master secret', 'ok', 'from SECRET_KEY (environment)', hints);
  }
  let length: number | null = null;
  if (stat !== null) {
    try {
      length = (await fsp.readFile(file, 'utf8')).trim().length;
    } catch {
      length = null;
    }
  }
  return evaluateSecretFile(file, stat, length);
}

function checkTls(config: Config, nowMs: number): CheckResult {
  // The config table refuses one without the other.
  const configured = config.tlsCertFile !== undefined && config.tlsKeyFile !== undefined;
  const certFile = config.tlsCertFile ?? path.join(config.dataDir, 'tls', 'cert.pem');
  const keyFile = config.tlsKeyFile ?? path.join(config.dataDir, 'tls', 'key.pem');
  const generated = configured || (fs.existsSync(certFile) && fs.existsSync(keyFile));
  return evaluateTls({
    source: configured ? 'configured' : 'self-signed',
    certFile,
    keyFile,
    pair: generated ? readTlsPair(keyFile, certFile) : null,
    mailHostname: config.mailHostname,
    nowMs,
  });
}

async function checkDisk(config: Config): Promise<CheckResult> {
  let dir = config.dataDir;
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    const s = await fsp.statfs(dir);
    return evaluateDisk(s.bavail * s.bsize, s.blocks * s.bsize, s.ffree > 0 ? s.ffree : undefined);
  } catch (err) {
    return result(
      'disk',
      'Disk space',
      'warn',
      `cannot read free space of ${dir}: ${(err as Error).message}`,
    );
  }
}

/**
 * SMTPS_PORT: TLS first (any certificate), then a 220 naming MAIL_HOSTNAME = ours.
 * Bounded by `timeoutMs` overall; never rejects.
 */
export function probeSmtps(
  listener: Listener,
  mailHostname: string,
  timeoutMs = 1500,
): Promise<ListenerState> {
  const host = connectHost(listener.host);
  const where = `${host}:${listener.port}`;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (state: ListenerState): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(state);
    };
    const timer = setTimeout(
      () => finish({ state: 'foreign', detail: `${where}: no TLS greeting within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const socket = tls.connect({ host, port: listener.port, rejectUnauthorized: false });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') finish({ state: 'free' });
      else finish({ state: 'foreign', detail: `${where} does not speak TLS: ${err.code ?? err.message}` });
    });
    socket.setEncoding('latin1');
    let banner = '';
    socket.on('data', (d: string) => {
      banner += d;
      if (!banner.includes('\n')) return;
      const name = greetingName(banner);
      finish(
        name === mailHostname.toLowerCase()
          ? { state: 'ours', detail: `${where} greets over TLS as ${name}` }
          : { state: 'foreign', detail: `${where} greets as ${name ?? banner.trim()}` },
      );
    });
  });
}

type Probe = (listener: Listener, mailHostname: string, timeoutMs: number) => Promise<ListenerState>;

/** Tries to bind the listener's address; when taken, asks who answers there. */
export async function portState(
  listener: Listener,
  mailHostname: string,
  timeoutMs = 1500,
  probe: Probe = probeListener,
): Promise<PortState> {
  const code = await new Promise<string | null>((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'ERROR'));
    server.listen({ host: listener.host, port: listener.port, exclusive: true }, () => {
      server.close(() => resolve(null));
    });
  });
  if (code === null) return { state: 'bindable' };
  if (code !== 'EADDRINUSE') return { state: 'denied', code };
  const who = await probe(listener, mailHostname, timeoutMs);
  if (who.state === 'ours') return { state: 'ours', detail: who.detail };
  if (who.state === 'foreign') return { state: 'foreign', detail: who.detail };
  // In use, but nothing answers from here (e.g. bound to another address only).
  return { state: 'foreign', detail: `in use, no answer on ${connectHost(listener.host)}:${listener.port}` };
}

async function checkPorts(config: Config): Promise<CheckResult[]> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const listeners: [Listener, Probe][] = applianceListeners(config).map((l) => [l, probeListener]);
  // Implicit TLS: the plain SMTP probe would see no greeting there.
  if (config.smtpsPort !== 0)
    listeners.push([
      { env: 'SMTPS_PORT', host: config.bindAddress, port: config.smtpsPort, kind: 'smtp' },
      probeSmtps,
    ]);
  return Promise.all(
    listeners.map(async ([l, probe]) =>
      evaluatePort(l, await portState(l, config.mailHostname, 1500, probe), uid),
    ),
  );
}

interface Dns {
  readonly servers: string;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  reverse(ip: string): Promise<string[]>;
  resolveMx(name: string): Promise<dns.MxRecord[]>;
}

function makeResolver(config: Config, timeoutMs: number): Dns {
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 2 });
  const servers = (config.dnsServers ?? []).map(serverAddress);
  if (servers.length > 0) resolver.setServers(servers);
  return {
    servers:
      servers.length > 0 ? servers.join(', ') : `system (${resolver.getServers().join(', ') || 'none'})`,
    resolve4: (n) => resolver.resolve4(n),
    resolve6: (n) => resolver.resolve6(n),
    // A plain PTR query on our resolver (dns.reverse would answer from /etc/hosts first).
    reverse: (ip) => resolver.resolvePtr(reverseName(ip)),
    resolveMx: (n) => resolver.resolveMx(n),
  };
}

/** `203.0.113.5` → `5.113.0.203.in-addr.arpa`; IPv6 by nibbles under ip6.arpa. */
export function reverseName(ip: string): string {
  if (net.isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const sl = new net.SocketAddress({ address: ip, family: 'ipv6' });
  const groups = sl.address.includes('::') ? expandIpv6(sl.address) : sl.address.split(':');
  const hex = groups.map((g) => g.padStart(4, '0')).join('');
  return `${hex.split('').reverse().join('.')}.ip6.arpa`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const h = head === '' ? [] : head.split(':');
  const t = tail === '' ? [] : tail.split(':');
  return [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
}

type Lookup<T> = { ok: true; value: T } | { ok: false; problem: string };

async function lookup<T>(fn: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    const c = classifyDnsError(err);
    return { ok: false, problem: c.status === 'failed' ? c.reason : c.status };
  }
}

async function checkDns(
  config: Config,
  resolver: Dns,
): Promise<{ check: CheckResult; forward: string[]; working: boolean }> {
  const title = 'DNS resolver';
  const host = config.mailHostname;
  const [a, aaaa] = await Promise.all([
    lookup(() => resolver.resolve4(host)),
    lookup(() => resolver.resolve6(host)),
  ]);
  const answered = (l: Lookup<string[]>): boolean =>
    l.ok || l.problem === 'nxdomain' || l.problem === 'nodata';
  const forward = [...(a.ok ? a.value : []), ...(aaaa.ok ? aaaa.value : [])];
  if (!answered(a) && !answered(aaaa)) {
    const problem = !a.ok ? a.problem : 'ERROR';
    return {
      check: result('dns', title, 'fail', `no answer from ${resolver.servers} for ${host}: ${problem}`, [
        'Domain verification, MX lookups and inbound mail checks all need DNS: fix the resolver or set DNS_SERVERS.',
      ]),
      forward,
      working: false,
    };
  }
  const what = forward.length > 0 ? `${host} → ${forward.join(', ')}` : `${host} has no A/AAAA record`;
  return {
    check: result('dns', title, 'ok', `${resolver.servers} answers; ${what}`),
    forward,
    working: true,
  };
}

function localPublicAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (!a.internal && isPublicIp(a.address)) out.push(a.address);
  return out;
}

async function checkReverseDns(
  config: Config,
  resolver: Dns,
  forward: readonly string[],
  local: readonly string[],
): Promise<CheckResult> {
  const candidates = [...new Set([...forward.filter(isPublicIp), ...local])];
  const ptr = await Promise.all(
    candidates.map(async (ip): Promise<PtrLookup> => {
      const r = await lookup(() => resolver.reverse(ip));
      return r.ok ? { ip, names: r.value } : { ip, names: [], problem: r.problem };
    }),
  );
  return evaluateReverseDns({ mailHostname: config.mailHostname, forward, local, ptr });
}

/** Connect, read the greeting, QUIT; each step bounded by `timeoutMs`. */
export async function probeOutbound(
  host: string,
  port: number,
  timeoutMs: number,
): Promise<
  { ok: true; banner: string; ms: number } | { ok: false; stage: 'connect' | 'greeting'; error: string }
> {
  const started = Date.now();
  const connected = await new Promise<string | null>((resolve) => {
    const socket = net.connect({ host, port });
    const done = (err: string | null): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(err);
    };
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms (filtered?)`), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
  if (connected !== null) return { ok: false, stage: 'connect', error: connected };
  const greeting = await probeSmtp(host, port, timeoutMs);
  if (!greeting.ok) return { ok: false, stage: 'greeting', error: greeting.error };
  return { ok: true, banner: greeting.banner.split(/\r?\n/)[0] ?? '', ms: Date.now() - started };
}

async function checkOutbound(
  config: Config,
  resolver: Dns | null,
  options: DoctorOptions,
): Promise<CheckResult> {
  const title = 'Outbound SMTP';
  const timeoutMs = options.outboundTimeoutMs ?? 5000;
  let target: { host: string; port: number; label: string; relay: boolean };
  if (options.outboundProbe !== undefined) {
    target = { ...options.outboundProbe, label: 'the probe target', relay: false };
  } else if (config.smtpRelay !== undefined) {
    target = { host: config.smtpRelay.host, port: config.smtpRelay.port, label: 'SMTP_RELAY', relay: true };
  } else {
    const domain = options.wellKnownDomain ?? 'gmail.com';
    if (resolver === null) return result('outbound', title, 'skip', 'DNS is not working');
    const mx = await lookup(() => resolver.resolveMx(domain));
    const best = mx.ok ? [...mx.value].sort((x, y) => x.priority - y.priority)[0] : undefined;
    if (best === undefined)
      return result(
        'outbound',
        title,
        'warn',
        `no MX for ${domain} to test with (${mx.ok ? 'empty' : mx.problem})`,
      );
    const ips = await lookup(() => resolver.resolve4(best.exchange));
    const ip = ips.ok ? ips.value[0] : undefined;
    if (ip === undefined) return result('outbound', title, 'warn', `cannot resolve ${best.exchange}`);
    target = { host: ip, port: 25, label: `${best.exchange} (MX of ${domain})`, relay: false };
  }
  const where = `${target.host}:${target.port}`;
  const probe = await probeOutbound(target.host, target.port, timeoutMs);
  const details = { target: where, label: target.label };
  if (probe.ok)
    return result(
      'outbound',
      title,
      'ok',
      `reached ${target.label} at ${where} in ${probe.ms} ms: ${probe.banner}`,
      [],
      details,
    );
  const status: CheckStatus = target.relay ? 'fail' : 'warn';
  const hints =
    probe.stage === 'connect'
      ? target.relay
        ? ['Check SMTP_RELAY: every outbound message goes there.']
        : [
            'Outbound port 25 looks blocked: many cloud providers block it by default (ask them to lift it), or set SMTP_RELAY to a smarthost.',
          ]
      : ['A connection opened but no SMTP greeting came: something in between intercepts port 25.'];
  return result(
    'outbound',
    title,
    status,
    `${target.label} at ${where}: ${probe.stage} failed: ${probe.error}`,
    hints,
    details,
  );
}

/** The earliest plausible time: when this file was built (minus a day for clock-skewed builders). */
function clockFloorMs(): number {
  const built = Date.UTC(2025, 0, 1);
  try {
    return Math.max(built, fs.statSync(__filename).mtimeMs - 24 * 3600 * 1000);
  } catch {
    return built;
  }
}

async function referenceTime(
  url: string,
  timeoutMs: number,
): Promise<{ source: string; dateMs: number } | { source: string; error: string }> {
  const source = new URL(url).host;
  try {
    const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    const date = res.headers.get('date');
    const ms = date === null ? NaN : Date.parse(date);
    if (Number.isNaN(ms)) return { source, error: 'no Date header' };
    return { source, dateMs: ms };
  } catch (err) {
    return { source, error: (err as Error).message };
  }
}

// ---------------------------------------------------------------- runner

/** Runs every check; never throws for a failing check, never hangs. */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const network = options.network ?? true;
  const checks: CheckResult[] = [];

  const { config, check } = checkConfig(env);
  checks.push(check);
  if (config === null) {
    for (const [id, title] of [
      ['data_dir', 'DATA_DIR'],
      ['tls', 'TLS certificate'],
      ['ports', 'Ports'],
      ['dns', 'DNS resolver'],
      ['outbound', 'Outbound SMTP'],
    ] as const)
      checks.push(result(id, title, 'skip', 'configuration invalid'));
  } else {
    checks.push(await checkDataDir(config), await checkSecret(config), await checkDisk(config));
    checks.push(checkTls(config, now()));
    checks.push(...(await checkPorts(config)));
    if (network) {
      const resolver = makeResolver(config, options.dnsTimeoutMs ?? 2000);
      const dnsCheck = await checkDns(config, resolver);
      checks.push(dnsCheck.check);
      const local = [...(options.interfaceAddresses ?? localPublicAddresses)(), ...(options.publicIps ?? [])];
      checks.push(
        dnsCheck.working
          ? await checkReverseDns(config, resolver, dnsCheck.forward, [...new Set(local)])
          : result('reverse_dns', 'Reverse DNS', 'skip', 'DNS is not working'),
      );
      checks.push(await checkOutbound(config, dnsCheck.working ? resolver : null, options));
    } else {
      for (const [id, title] of [
        ['dns', 'DNS resolver'],
        ['reverse_dns', 'Reverse DNS'],
        ['outbound', 'Outbound SMTP'],
      ] as const)
        checks.push(result(id, title, 'skip', '--offline'));
    }
  }
  const reference =
    options.clockUrl !== undefined && network ? await referenceTime(options.clockUrl, 5000) : undefined;
  checks.push(
    evaluateClock(
      reference === undefined
        ? { nowMs: now(), floorMs: clockFloorMs() }
        : { nowMs: now(), floorMs: clockFloorMs(), reference },
    ),
  );
  return buildReport(config?.dataDir ?? null, checks, now());
}

export const DOCTOR_USAGE = `  doctor [--json] [--offline]                check this host: configuration, DATA_DIR, disk, TLS,
         [--outbound-probe HOST[:PORT]]      ports, DNS, reverse DNS vs MAIL_HOSTNAME, outbound
         [--public-ip IP]... [--clock-url URL]  port 25, clock; exit code 1 when a check fails`;

/** `ctl doctor …`: prints the report, returns the exit code. */
export async function doctorCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      json: { type: 'boolean', default: false },
      offline: { type: 'boolean', default: false },
      'outbound-probe': { type: 'string' },
      'public-ip': { type: 'string', multiple: true },
      'clock-url': { type: 'string' },
    },
  });
  const publicIps = values['public-ip'] ?? [];
  for (const ip of publicIps) if (!net.isIP(ip)) throw new Error(`--public-ip: not an IP address: ${ip}`);
  const probe = values['outbound-probe'];
  const report = await runDoctor({
    network: !values.offline,
    outboundProbe: probe === undefined ? undefined : hostPort(25)(probe),
    publicIps,
    clockUrl: values['clock-url'],
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.exitCode;
}
