import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the MX serves with STARTTLS. */
export interface TlsFiles {
  readonly keyPem: Buffer;
  readonly certPem: Buffer;
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

/** Fails at start (with the file named) rather than on the first STARTTLS. */
function checkPair(keyPem: Buffer, certPem: Buffer, what: string): void {
  try {
    const cert = new crypto.X509Certificate(certPem);
    if (!cert.checkPrivateKey(crypto.createPrivateKey(keyPem)))
      throw new Error('key does not match the certificate');
  } catch (err) {
    throw new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
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
    return { keyPem, certPem, source: 'configured' };
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
  return { keyPem, certPem, source: 'self-signed' };
}
