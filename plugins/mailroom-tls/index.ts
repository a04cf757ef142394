/**
 * TLS on the SMTP listeners, with Haraka's own `tls` plugin doing the protocol
 * work: `inherits('tls')` copies its methods here and runs its register(), which
 * loads tls.ini (the certificate src/mta/tls-files.ts wrote into config/) and
 * hooks `capabilities` → advertise_starttls and `unrecognized_command` →
 * upgrade_connection. Methods defined here win over the inherited ones, so the
 * advertisement is ours: never on the loopback injection listener, where the
 * worker's client would otherwise upgrade to a certificate it cannot verify and
 * the bytes never leave the host anyway.
 *
 * Certificate reload: the source pair (mailroom.ini [tls], i.e. TLS_CERT_FILE /
 * TLS_KEY_FILE or $DATA_DIR/tls/) is stat'ed every `reload_ms`. When it changed
 * and the key matches the certificate, one SecureContext is built from it and
 * put where Haraka 3.3.4 takes it from (tls_socket.js, server.js):
 * - STARTTLS: every upgrade runs `new tls.TLSSocket(socket, {...certsByHost['*']})`,
 *   so `secureContext` (and key/cert) in certsByHost['*'] serve it;
 * - SNI: the SNICallback in those options answers from Haraka's private
 *   ctxByHost, built once; ours (installed before the tls plugin registers, so
 *   tls_socket copies it) answers with the current context;
 * - implicit TLS (smtps_port): a `tls.Server` built from the same options at
 *   listen time; its `setSecureContext()` swaps the context for new connections.
 * Open sessions keep the certificate they negotiated. A pair that does not match
 * (a renewal half done) is logged once and ignored until the files change again.
 */
import tls from 'node:tls';
import { listenerOf } from '../../src/mta/listeners';
import type { CertificateSummary } from '../../src/mta/tls-files';
import { fileSignature, readTlsPair } from '../../src/mta/tls-files';
import { iniInteger, iniValue } from '../ini';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

type Advertise = (this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection) => void;
type SniCallback = (servername: string, done: (err: Error | null, ctx?: tls.SecureContext) => void) => void;

/** The parts of Haraka's tls_socket module used here. */
interface TlsSocketModule {
  SNICallback: SniCallback;
  certsByHost: Record<string, Record<string, unknown> | undefined>;
}

/** A listener of Haraka's server.js (`Server.listeners`); `has_tls` = implicit TLS. */
interface HarakaListener {
  readonly has_tls?: boolean;
  readonly tlsServer?: tls.Server;
  setSecureContext?: (options: tls.SecureContextOptions) => void;
}

const state = {
  injectPort: 0,
  advertise: undefined as Advertise | undefined,
  plugin: undefined as HarakaPlugin | undefined,
  tlsSocket: undefined as TlsSocketModule | undefined,
  listeners: () => [] as readonly HarakaListener[],
  keyFile: '',
  certFile: '',
  /** Signature of the pair last tried (served, or refused and logged). */
  seen: '',
  context: undefined as tls.SecureContext | undefined,
  timer: undefined as NodeJS.Timeout | undefined,
};

interface WithBase {
  readonly base: Record<string, { advertise_starttls?: Advertise; shutdown?: () => void } | undefined>;
}

function iniString(ini: unknown, key: string): string {
  const value = iniValue(ini, 'tls', key);
  if (typeof value !== 'string' || value === '') throw new Error(`mailroom.ini [tls] ${key} is missing`);
  return value;
}

function signature(): string {
  return `${fileSignature(state.certFile)}|${fileSignature(state.keyFile)}`;
}

/** Haraka's server-side TLS options ('*'), as tls_socket.load_tls_ini left them. */
function defaultOptions(): Record<string, unknown> {
  const opts = state.tlsSocket?.certsByHost['*'];
  if (opts === undefined) throw new Error("Haraka's tls_socket has no default TLS options");
  return opts;
}

function certificateFields(c: CertificateSummary): Record<string, unknown> {
  return {
    subject: c.subject,
    issuer: c.issuer,
    names: c.names,
    notAfter: c.notAfter,
    fingerprint256: c.fingerprint256,
    serialNumber: c.serialNumber,
  };
}

/**
 * Loads the pair when its files changed since the last look; true when a new
 * certificate is now served. Never throws: the old context stays on any problem.
 */
function reloadCertificate(initial = false): boolean {
  const plugin = state.plugin;
  const sig = signature();
  if (sig === state.seen) return false;
  state.seen = sig;
  const pair = readTlsPair(state.keyFile, state.certFile);
  if (!pair.ok) {
    plugin?.logwarn('TLS certificate files changed but are not a usable pair; keeping the current one', {
      event: 'tls_certificate_reload_skipped',
      certFile: state.certFile,
      keyFile: state.keyFile,
      reason: pair.reason,
    });
    return false;
  }
  try {
    const opts = defaultOptions();
    const material = { key: [pair.keyPem], cert: [pair.certPem] };
    // Haraka's own options (dhparam, ciphers, minVersion, sessionIdContext …) with the new pair.
    const context = tls.createSecureContext({ ...opts, ...material });
    Object.assign(opts, material, { secureContext: context });
    for (const listener of state.listeners()) {
      if (listener.has_tls !== true) continue;
      const server = listener.tlsServer ?? listener;
      server.setSecureContext?.({ ...opts, ...material });
    }
    state.context = context;
  } catch (err) {
    plugin?.logwarn('TLS certificate could not be loaded; keeping the current one', {
      event: 'tls_certificate_reload_skipped',
      certFile: state.certFile,
      keyFile: state.keyFile,
      reason: err instanceof Error ? err.message : String(err),
    });
    return false;
  }
  plugin?.loginfo(initial ? 'TLS certificate loaded' : 'TLS certificate reloaded', {
    event: initial ? 'tls_certificate_loaded' : 'tls_certificate_reloaded',
    certFile: state.certFile,
    ...certificateFields(pair.certificate),
  });
  return true;
}

/** SNI (a client naming the host): the current context, else Haraka's default. */
const sniCallback: SniCallback = (_servername, done) => {
  done(null, state.context);
};

export function register(this: HarakaPlugin): void {
  const ini = this.config.get('mailroom.ini');
  state.injectPort = iniInteger(ini, 'mailroom.ini', 'inject', 'port');
  state.certFile = iniString(ini, 'cert_file');
  state.keyFile = iniString(ini, 'key_file');
  const reloadMs = iniInteger(ini, 'mailroom.ini', 'tls', 'reload_ms');
  state.plugin = this;

  const tlsSocket = this.haraka_require('tls_socket') as TlsSocketModule;
  if (typeof tlsSocket.SNICallback !== 'function') throw new Error("Haraka's tls_socket has no SNICallback");
  // Before the tls plugin's register(): load_tls_ini() copies exports.SNICallback into the options.
  tlsSocket.SNICallback = sniCallback;
  state.tlsSocket = tlsSocket;
  const server = this.haraka_require('server') as { listeners?: readonly HarakaListener[] };
  state.listeners = () => server.listeners ?? [];

  this.inherits('tls');
  const parent = (this as unknown as WithBase).base.tls?.advertise_starttls;
  if (typeof parent !== 'function') throw new Error("Haraka's tls plugin has no advertise_starttls()");
  state.advertise = parent;
  defaultOptions().SNICallback = sniCallback;

  reloadCertificate(true);
  state.timer = setInterval(() => reloadCertificate(), reloadMs);
  state.timer.unref();
}

export function shutdown(this: HarakaPlugin): void {
  clearInterval(state.timer);
  (this as unknown as WithBase).base.tls?.shutdown?.call(this);
}

/** The tls plugin's advertisement, on the MX and submission listeners only. */
export function advertise_starttls(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (listenerOf(connection.local.port, state.injectPort) === 'inject' || state.advertise === undefined) {
    next();
    return;
  }
  state.advertise.call(this, next, connection);
}
