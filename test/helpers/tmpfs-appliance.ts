// A sending appliance whose DATA_DIR is a small tmpfs of its own (root mounts it and
// unmounts it on stop, also when starting failed), and a filler for that volume: the
// full-disk tests of issue 17, finding 6 (test/security/full-disk.test.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Appliance } from './appliance';
import { startAppliance } from './appliance';
import type { FakeDns } from './dns-server';
import { startDnsServer } from './dns-server';
import type { SmtpSink } from './smtp-sink';
import { startSmtpSink } from './smtp-sink';
import { addVerifiedDomain } from './verified-domain';

const VOLUME_MB = 30;

/** Why tmpfs tests cannot run here, or undefined. */
export function tmpfsSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'needs a Linux tmpfs';
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs';
  return undefined;
}
export function freeBytes(dir: string): number {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
}

/** A file that leaves `leave` bytes free on dir's volume (or as close as the volume allows). */
export function fill(dir: string, leave: number): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'a');
  const chunk = Buffer.alloc(256 * 1024, 0x5a);
  try {
    for (let want = freeBytes(dir) - leave; want > 0; want -= chunk.length) {
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, want));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

export interface Harness {
  readonly volume: string;
  readonly app: Appliance;
  readonly sink: SmtpSink;
  readonly dns: FakeDns;
  readonly apiKey: string;
  readonly domain: string;
  stop(): Promise<void>;
}

/** A sending appliance whose DATA_DIR is a fresh tmpfs (VOLUME_MB unless told). */
export async function startOnTmpfs(
  domain: string,
  env: Record<string, string>,
  volumeMb = VOLUME_MB,
): Promise<Harness> {
  const volume = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${volumeMb}m,mode=0700`, 'tmpfs', volume]);
  const parts: { app?: Appliance; sink?: SmtpSink; dns?: FakeDns } = {};
  const stop = async (): Promise<void> => {
    await parts.app?.stop().catch(() => undefined);
    await parts.sink?.close().catch(() => undefined);
    await parts.dns?.close().catch(() => undefined);
    try {
      execFileSync('umount', ['-l', volume]);
    } finally {
      fs.rmSync(volume, { recursive: true, force: true });
    }
  };
  try {
    parts.dns = await startDnsServer();
    parts.sink = await startSmtpSink();
    parts.app = await startAppliance({
      // SQLite only: the volume fills with what the appliance writes to it, the SQLite database
      // among the rest. On PostgreSQL the database is elsewhere and the sends never brought the
      // volume to the floor (npm run test:pg: "the test proves nothing").
      backend: 'sqlite',
      dataDir: path.join(volume, 'data'),
      env: { DNS_SERVERS: parts.dns.address, SMTP_RELAY: parts.sink.address, ...env },
    });
    const account = await parts.app.api.registerWithKey();
    await addVerifiedDomain(parts.app, parts.dns, account.token, domain);
    const { app, sink, dns } = parts;
    return { volume, app, sink, dns, apiKey: account.apiKey, domain, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
