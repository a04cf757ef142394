import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config';
import { serverAddress } from '../shared/dns-resolver';
import { MIN_RECIPIENT_CAP } from './guard-verdicts';
import { harakaLogLevel } from './haraka-log';
import { outboundQueueDir } from './outbound-queue-file';
import { injectMaxBytes } from './size-limits';
import { FFDHE2048_PEM, ensureTlsFiles } from './tls-files';

/** The settings the MTA's Haraka configuration is rendered from. */
export type MtaConfig = Pick<
  AppConfig,
  | 'smtpPort'
  | 'submissionPort'
  | 'smtpsPort'
  | 'submissionAllowPlaintext'
  | 'injectPort'
  | 'bindAddress'
  | 'dataDir'
  | 'mailHostname'
  | 'dnsServers'
  | 'mtaRetryIntervals'
  | 'emailMaxSizeBytes'
  | 'emailMaxRecipients'
  | 'smtpRelay'
  | 'outboundMxPort'
  | 'logLevel'
  | 'shutdownTimeoutMs'
  | 'tlsCertFile'
  | 'tlsKeyFile'
  | 'mtaSts'
  | 'mtaStsTestPort'
  | 'extraCaFile'
  | 'outboundSender'
>;

export interface RenderedMta {
  /** Haraka's base directory (`haraka -c <harakaDir>`): `config/` and `plugins/`. */
  readonly harakaDir: string;
  readonly queueDir: string;
  readonly plugins: readonly string[];
  /** Where the STARTTLS certificate came from. */
  readonly tls: 'configured' | 'self-signed';
}

/** How often mailroom-tls looks at the certificate files for a renewal. */
export const TLS_RELOAD_MS = 2_000;

// dist/src/mta → repository root.
const ROOT = path.resolve(__dirname, '..', '..', '..');
/** RFC 5321 §4.5.4.2: an MX is reached on port 25; only OUTBOUND_MX_PORT (test-only) says otherwise. */
const SMTP_PORT = 25;
export const TEMPLATE_DIR = path.join(ROOT, 'haraka-config');
export const PLUGIN_DIST_DIR = path.join(ROOT, 'dist', 'plugins');

/** `host:port`, bracketing IPv6 literals as Haraka's `listen` expects. */
export function listenAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Haraka's `temp_fail_intervals`. Haraka ignores the WHOLE list when one interval is
 * under 5 s (outbound/config.js): the config table refuses such values at boot.
 */
export function tempFailIntervals(seconds: readonly number[]): string {
  return seconds.map((s) => `${s}s`).join(',');
}

/**
 * Haraka's own graceful-shutdown budget: leave about 2 s of SHUTDOWN_TIMEOUT_MS
 * for the mta process to SIGKILL a stuck Haraka and exit before the supervisor
 * gives up on it.
 */
export function harakaShutdownSeconds(shutdownTimeoutMs: number): number {
  return Math.max(1, Math.floor((shutdownTimeoutMs - 2000) / 1000));
}

/**
 * The plugins of Haraka's outbound path: the injection listener, DKIM signing at its queue,
 * delivery and its outcome hooks. With OUTBOUND_SENDER=worker the worker delivers and Haraka
 * runs the SMTP servers only (issue 31): these are not loaded and the listener is not opened.
 */
export const OUTBOUND_PLUGINS: readonly string[] = ['mailroom-inject', 'mailroom-dkim', 'mailroom-outbound'];

/** Whether Haraka delivers outbound mail (OUTBOUND_SENDER=haraka) or only serves SMTP. */
export function harakaDelivers(config: Pick<AppConfig, 'outboundSender'>): boolean {
  return config.outboundSender === 'haraka';
}

/**
 * Haraka's queue directory. Haraka delivers whatever it finds there at start: with the worker's
 * sender it gets a directory of its own that nothing writes to, so the old `mta-queue` is left to
 * the start-up import (docs/upgrading.md) and never delivered past our hooks.
 */
export function harakaQueueDir(config: Pick<AppConfig, 'outboundSender' | 'dataDir'>): string {
  return harakaDelivers(config)
    ? outboundQueueDir(config.dataDir)
    : path.join(config.dataDir, 'mta', 'queue-unused');
}

/** Values for the `{{name}}` placeholders of haraka-config/ (the config table already refused colliding ports). */
export function templateValues(config: MtaConfig): Record<string, string> {
  return {
    listen: [
      listenAddress(config.bindAddress, config.smtpPort),
      // Loopback only, whatever BIND_ADDRESS says: the worker's handoff is never exposed.
      ...(harakaDelivers(config) ? [listenAddress('127.0.0.1', config.injectPort)] : []),
      // SMTP submission for applications (issue 10); 0 disables it.
      ...(config.submissionPort === 0 ? [] : [listenAddress(config.bindAddress, config.submissionPort)]),
      // Implicit TLS (SMTPS, RFC 8314): smtp.ini's smtps_port makes Haraka serve it with TLS.
      ...(config.smtpsPort === 0 ? [] : [listenAddress(config.bindAddress, config.smtpsPort)]),
    ].join(','),
    // Haraka's default is 465: with 0 no listener is implicit TLS unless SMTPS_PORT says so.
    smtps_port: String(config.smtpsPort),
    me: config.mailHostname,
    // Haraka's one global limit is the injection listener's; mailroom-guard holds
    // the MX to EMAIL_MAX_SIZE_BYTES (src/mta/size-limits.ts).
    inject_max_bytes: String(injectMaxBytes(config.emailMaxSizeBytes)),
    max_bytes: String(config.emailMaxSizeBytes),
    inject_port: String(config.injectPort),
    submission_port: String(config.submissionPort),
    submission_allow_plaintext: String(config.submissionAllowPlaintext),
    tls_reload_ms: String(TLS_RELOAD_MS),
    // The worker sends all of a message's recipients (to+cc+bcc) in one transaction.
    inject_max_recipients: String(Math.max(MIN_RECIPIENT_CAP, config.emailMaxRecipients)),
    local_mx_ok: String(config.outboundMxPort !== SMTP_PORT),
    relay_host: config.smtpRelay?.host ?? '',
    relay_port: config.smtpRelay === undefined ? '' : String(config.smtpRelay.port),
    queue_dir: harakaQueueDir(config),
    temp_fail_intervals: tempFailIntervals(config.mtaRetryIntervals),
    log_level: harakaLogLevel(config.logLevel),
    force_shutdown_timeout: String(harakaShutdownSeconds(config.shutdownTimeoutMs)),
    dns_servers: (config.dnsServers ?? []).map(serverAddress).join(','),
    mta_sts: String(config.mtaSts),
    mta_sts_port: String(config.mtaStsTestPort),
    extra_ca_file: config.extraCaFile === undefined ? '' : path.resolve(config.extraCaFile),
  };
}

/**
 * Replaces `{{name}}`. An unknown placeholder is a bug in haraka-config/, and a
 * line break in a value would inject config lines: both fail loudly.
 */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`haraka-config: unknown placeholder {{${name}}}`);
    if (/[\r\n]/.test(value)) throw new Error(`haraka-config: value of {{${name}}} contains a line break`);
    return value;
  });
}

/** Plugin names of a Haraka `plugins` file: one per line, `#` comments. */
export function pluginNames(text: string): string[] {
  return text
    .split('\n')
    .map((line) => (line.split('#')[0] ?? '').trim())
    .filter((line) => line !== '');
}

/**
 * A folder plugin (Haraka loads `plugins/<name>/package.json`'s package with a
 * real `require` and copies its exports onto the Plugin object) whose index.js
 * re-exports our compiled plugin, so it resolves modules from the repository.
 */
function writePluginShim(pluginsDir: string, name: string, entry: string): void {
  const dir = path.join(pluginsDir, name);
  fs.mkdirSync(dir, { recursive: true });
  const pkg = { name, private: true, main: 'index.js' };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  fs.writeFileSync(
    path.join(dir, 'index.js'),
    `'use strict';\nmodule.exports = require(${JSON.stringify(entry)});\n`,
  );
}

export interface RenderOptions {
  readonly templateDir?: string;
  readonly pluginDistDir?: string;
}

/**
 * Renders haraka-config/ into `$DATA_DIR/mta/` from scratch on every start, so
 * no stale file survives a change. The queue lives outside it, in
 * `$DATA_DIR/mta-queue/`, and is never touched here.
 */
export function renderMtaConfig(config: MtaConfig, options: RenderOptions = {}): RenderedMta {
  const templateDir = options.templateDir ?? TEMPLATE_DIR;
  const pluginDistDir = options.pluginDistDir ?? PLUGIN_DIST_DIR;
  // First, so an unusable pair stops the start before anything is rendered.
  const tls = ensureTlsFiles(config);
  const values: Record<string, string> = {
    ...templateValues(config),
    // Absolute: Haraka runs in $DATA_DIR/mta, and mailroom-tls polls these for a renewal.
    tls_key_file: path.resolve(tls.keyFile),
    tls_cert_file: path.resolve(tls.certFile),
  };

  const harakaDir = path.join(config.dataDir, 'mta');
  const configDir = path.join(harakaDir, 'config');
  const pluginsDir = path.join(harakaDir, 'plugins');
  fs.rmSync(configDir, { recursive: true, force: true });
  fs.rmSync(pluginsDir, { recursive: true, force: true });
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(pluginsDir, { recursive: true, mode: 0o700 });

  for (const entry of fs.readdirSync(templateDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const text = fs.readFileSync(path.join(templateDir, entry.name), 'utf8');
    fs.writeFileSync(path.join(configDir, entry.name), renderTemplate(text, values));
  }

  // tls.ini names these three files (relative to config/); the key stays 0600.
  fs.writeFileSync(path.join(configDir, 'tls_key.pem'), tls.keyPem, { mode: 0o600 });
  fs.writeFileSync(path.join(configDir, 'tls_cert.pem'), tls.certPem);
  fs.writeFileSync(path.join(configDir, 'dhparams.pem'), FFDHE2048_PEM);

  const listed = pluginNames(fs.readFileSync(path.join(configDir, 'plugins'), 'utf8'));
  const plugins = harakaDelivers(config) ? listed : listed.filter((name) => !OUTBOUND_PLUGINS.includes(name));
  if (plugins.length !== listed.length)
    fs.writeFileSync(path.join(configDir, 'plugins'), `${plugins.join('\n')}\n`);
  for (const name of plugins) {
    const entry = path.join(pluginDistDir, name, 'index.js');
    // Fail here, with the path, rather than in Haraka's "No plugin with this name found".
    if (!fs.existsSync(entry)) throw new Error(`MTA plugin ${name}: ${entry} not found (run the build)`);
    writePluginShim(pluginsDir, name, entry);
  }

  const queueDir = harakaQueueDir(config);
  fs.mkdirSync(queueDir, { recursive: true, mode: 0o700 });
  return { harakaDir, queueDir, plugins, tls: tls.source };
}
