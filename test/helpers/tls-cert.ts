import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface CertFiles {
  readonly keyFile: string;
  readonly certFile: string;
}

export interface CertOptions {
  /** Files `<name>.key` and `<name>.crt` in `dir`. */
  readonly dir: string;
  readonly name: string;
  /** openssl -subj, e.g. `/CN=mx.example.test`. */
  readonly subject: string;
  /** subjectAltName entries, e.g. `DNS:mx.example.test`, `IP:192.0.2.1`. */
  readonly altNames: readonly string[];
  readonly days?: number;
}

/** A self-signed P-256 certificate and its key, made by the system's openssl (as certbot's files would be PEM). */
export function makeSelfSignedCert(options: CertOptions): CertFiles {
  const keyFile = path.join(options.dir, `${options.name}.key`);
  const certFile = path.join(options.dir, `${options.name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(options.days ?? 2),
      '-subj',
      options.subject,
      '-addext',
      `subjectAltName=${options.altNames.join(',')}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile };
}
