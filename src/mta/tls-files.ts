import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the SMTP listeners serve (STARTTLS, SMTPS). */
export interface TlsFiles {
  readonly keyPem: Buffer;
  readonly certPem: Buffer;
  /** The files the pair was read from (polled by plugins/mailroom-tls for a renewal). */
  readonly keyFile: string;
  readonly certFile: string;
  /** `configured` = TLS_CERT_FILE/TLS_KEY_FILE; `self-signed` = generated into `$DATA_DIR/tls/`. */
  readonly source: 'configured' | 'self-signed';
}

export interface TlsSettings {
  readonly dataDir: string;
  readonly mailHostname: string;
  readonly tlsCertFile?: string | undefined;
  readonly tlsKeyFile?: string | undefined;
}

/**
 * RFC 7919 ffdhe2048, for DHE cipher suites. Haraka's tls_socket runs `openssl
 * dhparam 2048` at first boot when it has none, which can take minutes; a
 * published group is as good (RFC 7919 §1) and costs nothing.
 */
export const FFDHE2048_PEM = `-----BEGIN DH PARAMETERS-----
MIIBCAKCAQEA//////////+t+FRYortKmq/cViAnPTzx2LnFg84tNpWp4TZBFGQz
+8yTnc4kmz75fS/jY2MMddj2gbICrsRhetPfHtXV/WVhJDP1H18GbtCFY2VVPe0a
87VXE15/V8k1mE8McODmi3fipona8+/och3xWKE2rec1MKzKT0g6eXq8CrGCsyT7
YdEIqUuyyOP7uWrat2DX9GgdT0Kj3jlN9K5W7edjcrsZCwenyO4KbXCeAvzhzffi
7MA0BM0oNC9hkXL+nOmFg/+OTxIy7vKBg8P+OxtMb61zO7X8vC7CIAXFjvGDfRaD
ssbzSibBsu/6iGtCOGEoXJf//////////wIBAg==
-----END DH PARAMETERS-----
`;

/** What a certificate says about itself; never any key material. */
export interface CertificateSummary {
  readonly subject: string;
  readonly issuer: string;
  /** DNS names of the subjectAltName (lower case), else the subject's CN. */
  readonly names: readonly string[];
  readonly notBefore: string;
  readonly notAfter: string;
  /** SHA-256 fingerprint, `AB:CD:…` as openssl and Node print it. */
  readonly fingerprint256: string;
  readonly serialNumber: string;
  readonly selfSigned: boolean;
}

function lines(dn: string): string {
  return dn.split('\n').filter(Boolean).join(', ');
}

export function describeCertificate(cert: crypto.X509Certificate): CertificateSummary {
  const san = (cert.subjectAltName ?? '')
    .split(', ')
    .filter((e) => e.startsWith('DNS:'))
    .map((e) => e.slice(4).toLowerCase());
  const cn = /^CN=(.*)$/m.exec(cert.subject)?.[1]?.toLowerCase();
  return {
    subject: lines(cert.subject),
    issuer: lines(cert.issuer),
    names: san.length > 0 ? san : cn === undefined ? [] : [cn],
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    fingerprint256: cert.fingerprint256,
    serialNumber: cert.serialNumber,
    selfSigned: cert.issuer === cert.subject && cert.verify(cert.publicKey),
  };
}

/** RFC 6125 §6.4: exact, or `*.` covering exactly one left-most label. */
export function certificateCovers(names: readonly string[], hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return names.some((name) => {
    if (name === host) return true;
    if (!name.startsWith('*.')) return false;
    const dot = host.indexOf('.');
    return dot > 0 && host.slice(dot + 1) === name.slice(2);
  });
}

export type TlsPair =
  | {
      readonly ok: true;
      readonly keyPem: Buffer;
      readonly certPem: Buffer;
      readonly certificate: CertificateSummary;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * A key and a certificate (chain: the first one is the leaf) that belong
 * together. Anything else — unreadable, half written, mismatched — is a reason,
 * never an exception: a renewal in progress looks exactly like that.
 */
export function checkTlsPair(keyPem: Buffer, certPem: Buffer): TlsPair {
  let cert: crypto.X509Certificate;
  try {
    cert = new crypto.X509Certificate(certPem);
  } catch (err) {
    return {
      ok: false,
      reason: `certificate unreadable: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(keyPem);
  } catch (err) {
    return { ok: false, reason: `key unreadable: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!cert.checkPrivateKey(key)) return { ok: false, reason: 'the key does not match the certificate' };
  return { ok: true, keyPem, certPem, certificate: describeCertificate(cert) };
}

export function readTlsPair(keyFile: string, certFile: string): TlsPair {
  let keyPem: Buffer;
  let certPem: Buffer;
  try {
    keyPem = fs.readFileSync(keyFile);
    certPem = fs.readFileSync(certFile);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, reason: `cannot read ${e.path ?? keyFile}: ${e.code ?? e.message}` };
  }
  return checkTlsPair(keyPem, certPem);
}

/**
 * What changes when a file is replaced (rename: another inode) or rewritten in
 * place (size, mtime, ctime); `missing` when it cannot be stat'ed. stat follows
 * symbolic links, so certbot's `live/` links moving to a new archive file count.
 */
export function fileSignature(file: string): string {
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    return `missing:${(err as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/** Fails at start (with the file named) rather than on the first STARTTLS. */
function checkPair(keyPem: Buffer, certPem: Buffer, what: string): void {
  const pair = checkTlsPair(keyPem, certPem);
  if (!pair.ok) throw new Error(`${what}: ${pair.reason}`);
}

/**
 * Node can make keys but not X.509 certificates, so the self-signed one comes
 * from `openssl` (in every Debian image; the Dockerfile installs it). Written to
 * temporary names and renamed, so a crash never leaves half a pair.
 */
function generateSelfSigned(dir: string, hostname: string, keyFile: string, certFile: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmpKey = `${keyFile}.${process.pid}.tmp`;
  const tmpCert = `${certFile}.${process.pid}.tmp`;
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '3650',
        '-subj',
        `/CN=${hostname}`,
        '-addext',
        `subjectAltName=DNS:${hostname}`,
        '-keyout',
        tmpKey,
        '-out',
        tmpCert,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 },
    );
  } catch (err) {
    fs.rmSync(tmpKey, { force: true });
    fs.rmSync(tmpCert, { force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `cannot generate a self-signed certificate with openssl (install it, or set TLS_CERT_FILE and TLS_KEY_FILE): ${stderr ?? String(err)}`,
      { cause: err },
    );
  }
  fs.chmodSync(tmpKey, 0o600);
  fs.renameSync(tmpKey, keyFile);
  fs.renameSync(tmpCert, certFile);
}

/**
 * The MX's certificate: TLS_CERT_FILE/TLS_KEY_FILE when set; else
 * `$DATA_DIR/tls/{key,cert}.pem`, generated once for MAIL_HOSTNAME and reused
 * on every start (senders that pin or log it see one certificate).
 */
export function ensureTlsFiles(settings: TlsSettings): TlsFiles {
  if (settings.tlsCertFile !== undefined && settings.tlsKeyFile !== undefined) {
    const keyPem = fs.readFileSync(settings.tlsKeyFile);
    const certPem = fs.readFileSync(settings.tlsCertFile);
    checkPair(keyPem, certPem, `TLS_CERT_FILE ${settings.tlsCertFile} / TLS_KEY_FILE ${settings.tlsKeyFile}`);
    return {
      keyPem,
      certPem,
      keyFile: settings.tlsKeyFile,
      certFile: settings.tlsCertFile,
      source: 'configured',
    };
  }
  const dir = path.join(settings.dataDir, 'tls');
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  if (!fs.existsSync(keyFile) || !fs.existsSync(certFile)) {
    generateSelfSigned(dir, settings.mailHostname, keyFile, certFile);
  }
  const keyPem = fs.readFileSync(keyFile);
  const certPem = fs.readFileSync(certFile);
  checkPair(keyPem, certPem, dir);
  return { keyPem, certPem, keyFile, certFile, source: 'self-signed' };
}
