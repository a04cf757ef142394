/**
 * The upgrade to the worker's sender (issue 31 item 7): at start-up with OUTBOUND_SENDER=worker,
 * before any process starts (src/boot.ts), the mail an earlier run left in Haraka's outbound
 * queue (`DATA_DIR/mta-queue`) is handed to the job table, file by file:
 * 1. the file's header says which message (the VERP return path) and which recipients;
 * 2. one commit enqueues the `email-send` job that delivers those of them still waiting
 *    (queue-takeover.ts), keyed by the file's name;
 * 3. then the file is removed. A kill between 2 and 3 leaves the file, and the next start finds
 *    its job already there (the dedupe key): imported twice, sent once.
 * A file that names no message of ours, or cannot be read, is moved to
 * `DATA_DIR/mta-queue-unmatched/` and logged, never deleted. Runs with no Haraka running on the
 * directory: each node has its own DATA_DIR and boot precedes the mta.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { parseVerp } from '../mail/verp-address';
import type { Takeover } from '../modules/delivery';
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
  /** Jobs written now, and the recipients they deliver. */
  readonly jobs: number;
  readonly recipients: number;
  /** Files whose job an interrupted earlier import had written. */
  readonly alreadyImported: number;
  /** Files whose every recipient had ended: nothing to send. */
  readonly ended: number;
  /** Files moved to mta-queue-unmatched/. */
  readonly setAside: number;
}

export interface QueueImportDeps {
  readonly db: Kysely<Database>;
  readonly dataDir: string;
  readonly logger: Logger;
}

type Verdict = Takeover | { readonly kind: 'unreadable'; readonly reason: string };

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
  for (const name of names.sort()) {
    const file = path.join(queueDir, name);
    const verdict = await importFile(deps.db, file, name);
    if (verdict.kind === 'unmatched' || verdict.kind === 'unreadable') {
      await setAside(deps.dataDir, file, name);
      counts.setAside++;
      log.warn(
        { event: 'outbound_queue_file_set_aside', file: name, reason: verdict.reason },
        'outbound queue file not imported: moved to mta-queue-unmatched/',
      );
      continue;
    }
    // Only now that the job's commit is done (and durable: synchronous=FULL, or PostgreSQL's commit).
    await fsp.rm(file, { force: true });
    if (verdict.kind === 'ended') counts.ended++;
    else if (!verdict.created) counts.alreadyImported++;
    else {
      counts.jobs++;
      counts.recipients += verdict.recipients.length;
    }
  }
  // The removals and renames survive a power cut; were one lost, the next start dedupes the file.
  await syncDirectory(queueDir);
  log.info(
    { event: 'outbound_queue_imported', ...counts, queueDir },
    `outbound queue taken over by the worker's sender: ${counts.jobs} job(s) for ${counts.recipients} recipient(s)`,
  );
  return counts;
}

async function importFile(db: Kysely<Database>, file: string, name: string): Promise<Verdict> {
  if (name.startsWith(TEMPORARY_PREFIX))
    return { kind: 'unreadable', reason: 'a file Haraka had not finished writing' };
  if (name.startsWith(HARAKA_ERROR_PREFIX))
    return { kind: 'unreadable', reason: 'set aside by Haraka as corrupt' };
  const parts = parseQueueFileName(name);
  if (parts === undefined) return { kind: 'unreadable', reason: 'not a queue file name' };
  let envelope;
  try {
    envelope = await readQueuedEnvelope(file);
  } catch (err) {
    return { kind: 'unreadable', reason: `damaged: ${err instanceof Error ? err.message : String(err)}` };
  }
  const verp = parseVerp(envelope.mailFrom);
  if (verp === undefined)
    return { kind: 'unmatched', reason: `return path <${envelope.mailFrom}> is not ours` };
  return db.transaction().execute((trx) =>
    takeOverQueuedDelivery(trx, {
      emailId: verp.emailId,
      senderDomain: verp.domain,
      recipients: envelope.rcptTo,
      attempts: parts.attempts,
      nextAttempt: new Date(parts.nextAttempt),
      file: name,
    }),
  );
}

async function setAside(dataDir: string, file: string, name: string): Promise<void> {
  const dir = unmatchedQueueDir(dataDir);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  await fsp.rename(file, path.join(dir, name));
  await syncDirectory(dir);
}
