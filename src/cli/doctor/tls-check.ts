import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import type { TlsPair } from '../../mta/tls-files';
import { certificateCovers, readTlsPair } from '../../mta/tls-files';
import type { CheckResult, CheckStatus } from './check-result';
import { result, worst } from './check-result';

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
    'For a certificate clients trust, point TLS_CERT_FILE/TLS_KEY_FILE at e.g. certbot’s /etc/letsencrypt/live/<host>/fullchain.pem and privkey.pem; renewals are picked up without a restart (docs/deployment.md).';
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

export function checkTls(config: Config, nowMs: number): CheckResult {
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
