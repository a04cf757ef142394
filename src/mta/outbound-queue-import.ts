/**
 * The upgrade to the worker's sender (issue 31 item 7): at start-up with OUTBOUND_SENDER=worker,
 * before any process starts (src/boot.ts), the mail an earlier run left in Haraka's outbound
 * queue (`DATA_DIR/mta-queue`) is handed to the job table, message by message:
 * 1. each file's header says which message (the VERP return path) and which recipients;
 * 2. a commit (of up to 200 messages) enqueues, per message, the `email-send` job that delivers
 *    those of its files' recipients still waiting (queue-takeover.ts), keyed by the message's
 *    hand-off to Haraka;
 * 3. then its files are removed. A kill between 2 and 3 leaves files, and the next start finds
 *    their job already there (the dedupe key): imported twice, sent once.
 * A file that names no message of ours, or cannot be read, is moved to
 * `DATA_DIR/mta-queue-unmatched/` and logged, never deleted. Runs with no Haraka running on the
 * directory: each node has its own DATA_DIR, boot precedes the mta, and with the worker's sender
 * Haraka's queue is another directory (render-config.ts harakaQueueDir).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { parseVerp } from '../mail/verp-address';
import type { QueuedDelivery, Takeover } from '../modules/delivery';
import { takeOverQueuedDelivery } from '../modules/delivery';
import type { Logger } from '../shared/logger';
import { syncDirectory } from '../shared/sync-directory';
import {
  HARAKA_ERROR_PREFIX,
  outboundQueueDir,
  parseQueueFileName,
  readQueuedEnvelope,
  TEMPORARY_PREFIX,
} from './outbound-queue-file';

/** Where files that cannot be imported are kept for the operator. */
export function unmatchedQueueDir(dataDir: string): string {
  return path.join(dataDir, 'mta-queue-unmatched');
}

export interface QueueImportCounts {
  /** Files found in the queue. */
  readonly files: number;
  /** Jobs written now (one per message), and the recipients they deliver. */
  readonly jobs: number;
  readonly recipients: number;
  /** Messages whose job an interrupted earlier import had written. */
  readonly alreadyImported: number;
  /** Messages whose queued recipients had all ended: nothing to send. */
  readonly ended: number;
  /** Files moved to mta-queue-unmatched/. */
  readonly setAside: number;
}

export interface QueueImportDeps {
  readonly db: Kysely<Database>;
  readonly dataDir: string;
  readonly logger: Logger;
}

/** A readable file of one of our messages. */
interface QueueFile {
  readonly name: string;
  readonly rcptTo: readonly string[];
  readonly attempts: number;
  readonly nextAttempt: number;
}

/** The files of one message (and return-path domain), as they go into one commit. */
interface MessageFiles {
  readonly emailId: string;
  readonly senderDomain: string;
  readonly files: QueueFile[];
}

/** Imports every file of the queue; one log line with the counts when there was any. */
export async function importOutboundQueue(deps: QueueImportDeps): Promise<QueueImportCounts> {
  const queueDir = outboundQueueDir(deps.dataDir);
  const names = await fsp.readdir(queueDir).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  });
  const counts = { files: names.length, jobs: 0, recipients: 0, alreadyImported: 0, ended: 0, setAside: 0 };
  if (names.length === 0) return counts;
  const log = deps.logger.child({ module: 'outbound-queue-import' });
  const setAside = async (name: string, reason: string): Promise<void> => {
    await moveAside(deps.dataDir, path.join(queueDir, name), name);
    counts.setAside++;
    log.warn(
      { event: 'outbound_queue_file_set_aside', file: name, reason },
      'outbound queue file not imported: moved to mta-queue-unmatched/',
    );
  };

  const messages = new Map<string, MessageFiles>();
  for (const name of names.sort()) {
    const read = await readFile(queueDir, name);
    if (read.kind === 'unreadable') {
      await setAside(name, read.reason);
      continue;
    }
    const key = `${read.emailId} ${read.senderDomain}`;
    const group = messages.get(key) ?? { emailId: read.emailId, senderDomain: read.senderDomain, files: [] };
    group.files.push(read.file);
    messages.set(key, group);
  }

  const all = [...messages.values()];
  for (let i = 0; i < all.length; i += MESSAGES_PER_COMMIT) {
    const batch = all.slice(i, i + MESSAGES_PER_COMMIT);
    const taken = await deps.db.transaction().execute(async (trx) => {
      const out: Takeover[] = [];
      for (const m of batch) out.push(await takeOverQueuedDelivery(trx, deliveryOf(m)));
      return out;
    });
    // Only now that the jobs' commit is done (and durable: synchronous=FULL, or PostgreSQL's commit).
    for (const [j, m] of batch.entries()) {
      const t = taken[j];
      if (t === undefined) continue;
      if (t.kind === 'unmatched') {
        for (const f of m.files) await setAside(f.name, t.reason);
        continue;
      }
      if (t.kind === 'ended') counts.ended++;
      else if (!t.created) counts.alreadyImported++;
      else {
        counts.jobs++;
        counts.recipients += t.recipients.length;
      }
      for (const f of m.files) {
        if (f.rcptTo.some((a) => t.known.has(a.toLowerCase())))
          await fsp.rm(path.join(queueDir, f.name), { force: true });
        else await setAside(f.name, 'none of its recipients is one of the message');
      }
    }
  }
  // The removals survive a power cut; were one lost, the next start finds the job already there.
  await syncDirectory(queueDir);
  log.info(
    { event: 'outbound_queue_imported', ...counts, queueDir },
    `outbound queue taken over by the worker's sender: ${counts.jobs} job(s) for ${counts.recipients} recipient(s)`,
  );
  return counts;
}

/** Messages per commit: a queue of thousands of files costs tens of commits, not thousands. */
const MESSAGES_PER_COMMIT = 200;

function deliveryOf(m: MessageFiles): QueuedDelivery {
  return {
    emailId: m.emailId,
    senderDomain: m.senderDomain,
    recipients: [...new Set(m.files.flatMap((f) => f.rcptTo))],
    attempts: Math.max(...m.files.map((f) => f.attempts)),
    nextAttempt: new Date(Math.min(...m.files.map((f) => f.nextAttempt))),
  };
}

type Read =
  | {
      readonly kind: 'ours';
      readonly emailId: string;
      readonly senderDomain: string;
      readonly file: QueueFile;
    }
  | { readonly kind: 'unreadable'; readonly reason: string };

async function readFile(queueDir: string, name: string): Promise<Read> {
  if (name.startsWith(TEMPORARY_PREFIX))
    return { kind: 'unreadable', reason: 'a file Haraka had not finished writing' };
  if (name.startsWith(HARAKA_ERROR_PREFIX))
    return { kind: 'unreadable', reason: 'set aside by Haraka as corrupt' };
  const parts = parseQueueFileName(name);
  if (parts === undefined) return { kind: 'unreadable', reason: 'not a queue file name' };
  let envelope;
  try {
    envelope = await readQueuedEnvelope(path.join(queueDir, name));
  } catch (err) {
    return { kind: 'unreadable', reason: `damaged: ${err instanceof Error ? err.message : String(err)}` };
  }
  const verp = parseVerp(envelope.mailFrom);
  if (verp === undefined)
    return { kind: 'unreadable', reason: `return path <${envelope.mailFrom}> is not ours` };
  return {
    kind: 'ours',
    emailId: verp.emailId,
    senderDomain: verp.domain,
    file: { name, rcptTo: envelope.rcptTo, ...parts },
  };
}

async function moveAside(dataDir: string, file: string, name: string): Promise<void> {
  const dir = unmatchedQueueDir(dataDir);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  await fsp.rename(file, path.join(dir, name));
  await syncDirectory(dir);
}
