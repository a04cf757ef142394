import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import type { CheckResult } from './check-result';
import { result } from './check-result';
import { octal } from './data-dir-check';

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

export async function checkSecret(config: Config): Promise<CheckResult> {
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
