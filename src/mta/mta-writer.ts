import path from 'node:path';
import type { WriterThreadData } from '../db/writer-thread';
import { WriterThread } from '../db/writer-thread';
import type { DeliveryReportsRecorder } from './delivery-reports';
import type { IntakeCommit } from './inbound-intake';
import type { MtaWriterUnits } from './mta-writer-thread';
import type { SubmissionAuthRequest, SubmissionAuthVerdict } from './submission/submission-auth';
import type { SubmissionCommit } from './submission/submission-commit';
import { submissionTransfer } from './submission/submission-commit';

/** SMTP submission's database work (src/mta/submission/), all of it in the writer thread. */
export interface SubmissionWriter {
  /** `mta.submission-auth`: the AUTH verdict for an API key. */
  readonly authenticate: (request: SubmissionAuthRequest) => Promise<SubmissionAuthVerdict>;
  /** `mta.submission`: resolves with the email id once the commit holding the message returned. */
  readonly commit: SubmissionCommit;
}

/** The Haraka process's writer thread, by what the plugins ask of it. */
export interface MtaWriter {
  /** `mta.delivery-reports`: resolves once the commit holding the reports returned. */
  readonly deliveryReports: DeliveryReportsRecorder;
  /** `mta.intake`: one message's jobs in one savepoint of the thread's group commit. */
  readonly intake: IntakeCommit;
  /** `mta.submission-auth` and `mta.submission`; a commit moves the message's bytes to the thread. */
  readonly submission: SubmissionWriter;
  /** Whether a thread is up (it is not before the first call, nor while idle). */
  readonly running: boolean;
  /** Lets the thread answer what it was asked, close its connection and end; calls after this fail. */
  close(): Promise<void>;
}

/**
 * A thread this long without a call ends and gives its heap back (issue 18 item 9: it stayed at
 * its peak after every burst); the next call (a delivery report, an intake, a submission) starts
 * a new one, as the first did.
 */
const IDLE_MS = 30_000;

/**
 * Starts (on its first call) the mta's writer thread (mta-writer-thread.ts). A
 * thread that dies fails what it had pending (the callers act as for any failed
 * write) and the next call starts a new one. Never what keeps Haraka alive: a
 * graceful stop waits for its sessions, not for this thread.
 */
export function startMtaWriter(
  data: Omit<WriterThreadData, 'process'>,
  options: { readonly idleMs?: number | undefined } = {},
): MtaWriter {
  const thread = new WriterThread<MtaWriterUnits>({
    script: path.join(__dirname, 'mta-writer-thread.js'),
    data: { ...data, process: 'mta' },
    ref: false,
    idleMs: options.idleMs ?? IDLE_MS,
  });
  return {
    get running() {
      return thread.running;
    },
    deliveryReports: (payloads) =>
      payloads.length === 0 ? Promise.resolve(0) : thread.call('mta.delivery-reports', payloads),
    intake: (jobs) => thread.call('mta.intake', jobs),
    submission: {
      authenticate: (request) => thread.call('mta.submission-auth', request),
      commit: (request) => thread.call('mta.submission', request, submissionTransfer(request)),
    },
    close: () => thread.close(),
  };
}
