import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Reading a Haraka 3.3.4 outbound queue file without Haraka (the upgrade to the worker's sender,
 * outbound-queue-import.ts). A file is a 4-byte big-endian header length, the header (the
 * "todo": JSON of outbound/todo.js, addresses as @haraka/email-address objects), then the
 * message (queue-file-check.ts checks that size when the file is written). Its name is
 * `$arrival_$nextattempt_$attempts_$pid_$uid_$counter_$host` (outbound/qfile.js), where
 * `attempts` counts the deliveries that were deferred.
 */

/** Haraka's outbound queue: render-config.ts points its queue_dir here. */
export function outboundQueueDir(dataDir: string): string {
  return path.join(dataDir, 'mta-queue');
}

/** What the name says about the file's deliveries. */
export interface QueueFileName {
  /** When Haraka would try it next (ms since the epoch). */
  readonly nextAttempt: number;
  /** Delivery attempts behind it that ended deferred. */
  readonly attempts: number;
}

/** The envelope the header holds (message bytes are not read: the worker builds them again). */
export interface QueuedEnvelope {
  /** The return path; '' for the null sender. */
  readonly mailFrom: string;
  /** Recipients still in this file, as Haraka holds them (one domain per file). */
  readonly rcptTo: readonly string[];
}

/** Files Haraka writes before renaming into the queue, and the ones it set aside as corrupt. */
export const TEMPORARY_PREFIX = '__tmp__.';
export const HARAKA_ERROR_PREFIX = 'error.';

/** undefined for a name Haraka 3.3.4 would not load either. */
export function parseQueueFileName(name: string): QueueFileName | undefined {
  const parts = name.split('_');
  if (parts.length !== 7) return undefined;
  const [arrival, next, attempts] = parts;
  if (![arrival, next, attempts].every((p) => p !== undefined && /^\d{1,16}$/.test(p))) return undefined;
  return { nextAttempt: Number(next), attempts: Number(attempts) };
}

/** Far beyond any header we write (a few hundred bytes per recipient): a longer one is damage. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

/** Throws, saying what is wrong, when the file is not a queue file whose header can be read. */
export async function readQueuedEnvelope(file: string): Promise<QueuedEnvelope> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const prefix = Buffer.alloc(4);
    const { bytesRead } = await handle.read(prefix, 0, 4, 0);
    if (bytesRead !== 4) throw new Error(`${size} bytes: no header length`);
    const length = prefix.readUInt32BE(0);
    if (length === 0 || length > MAX_HEADER_BYTES || 4 + length > size)
      throw new Error(`header of ${length} bytes in a file of ${size}`);
    const header = Buffer.alloc(length);
    await handle.read(header, 0, length, 4);
    return envelopeOf(JSON.parse(header.toString('utf8')) as unknown);
  } finally {
    await handle.close();
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** An @haraka/email-address object as JSON: `user@host` (its address()), '' for the null sender. */
function addressOf(v: unknown, what: string): string {
  if (!isRecord(v)) throw new Error(`${what} is not an address`);
  const { user, host, original_host: originalHost } = v;
  const domain = typeof originalHost === 'string' && originalHost !== '' ? originalHost : host;
  if (typeof user !== 'string' || user === '') {
    if (typeof v.original === 'string' && v.original.replace(/[<>\s]/g, '') === '') return '';
    throw new Error(`${what} has no user`);
  }
  return typeof domain === 'string' && domain !== '' ? `${user}@${domain}` : user;
}

function envelopeOf(todo: unknown): QueuedEnvelope {
  if (!isRecord(todo)) throw new Error('header is not a JSON object');
  if (!Array.isArray(todo.rcpt_to) || todo.rcpt_to.length === 0) throw new Error('header names no recipient');
  return {
    mailFrom: addressOf(todo.mail_from, 'mail_from'),
    rcptTo: todo.rcpt_to.map((r: unknown, i) => addressOf(r, `rcpt_to[${i}]`)),
  };
}
