import path from 'node:path';
import type { AppConfig } from '../config';
import { WriterThread } from '../db/writer-thread';
import type { SendCommitter } from '../modules/sending/api-send';
import { emailQueueFailed, emailQueueFailedBy } from '../modules/emails/emails.errors';
import type { ApiWriterUnits } from './api-writer-thread';

/** The api's writer thread and the send committer it serves. */
export interface ApiWriter extends SendCommitter {
  /** Whether a thread is up (it is not while idle). */
  readonly running: boolean;
  /** Once every send was answered (the HTTP server has closed): ends the thread and waits for it. */
  close(): Promise<void>;
}

/**
 * Where POST /v1/emails runs its commit step: a writer thread of the api process
 * (src/db/writer-thread.ts, unit `email.commit`), so that the commits overlap with
 * HTTP parsing, authentication and validation on the machine's second core
 * (issue 11). The thread starts with the first send and ends after `idleMs`
 * without one, so an idle api does not keep its heap; a thread that dies fails
 * the sends waiting on it with EMAIL_QUEUE_FAILED and `onFatal` is told.
 */
export function startApiWriter(
  config: AppConfig,
  options: { readonly onFatal: (err: unknown) => void; readonly idleMs?: number | undefined },
): ApiWriter {
  const thread = new WriterThread<ApiWriterUnits>({
    script: path.join(__dirname, 'api-writer-thread.js'),
    data: { url: config.databaseUrl, config, process: 'api' },
    // Its heap lives only while sends come in: room for the young generation costs nothing idle.
    resourceLimits: { maxYoungGenerationSizeMb: 48 },
    idleMs: options.idleMs ?? 30_000,
    threadFailed: emailQueueFailedBy,
    stopped: emailQueueFailed,
    onThreadDied: options.onFatal,
  });
  return {
    get running() {
      return thread.running;
    },
    commit: (send) => thread.call('email.commit', send),
    commitBatch: (sends) => thread.call('email.commit-batch', sends),
    close: () => thread.close(),
  };
}
