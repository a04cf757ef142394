// The worker's stall watchdog (issue 17 finding 2): one handler that blocks the event loop (a
// regex backtracking over a hostile report) stalled every queue for every tenant, retried five
// times, and nothing restarted the worker. A thread that shares memory with the main thread sees
// the main loop's heartbeat stop; past the limit it fails the blamed job (once, not retried), logs
// `worker_stalled` and SIGKILLs the process, and the supervisor starts a fresh worker.
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** What the watchdog blames a stall on: the job whose code the main thread was running. */
export interface BlamedJob {
  readonly id: string;
  readonly attempts: number;
}

export interface StallWatchdogOptions {
  /** How long the event loop may go without a heartbeat (WORKER_STALL_LIMIT_MS). */
  readonly limitMs: number;
  /** DATABASE_URL; the thread opens its own connection, since the main thread cannot answer. */
  readonly url: string;
  readonly logLevel: string;
  /** NODE_NAME, for its log line. */
  readonly node?: string | undefined;
}

/** Data handed to stall-watchdog-thread.ts. */
export interface StallWatchdogData extends StallWatchdogOptions {
  readonly shared: SharedArrayBuffer;
  /** The job runner's lease owner: the thread settles only a job this worker still holds. */
  readonly owner: string;
}

// Layout of the shared memory, in Int32 slots, then the blamed job's id as UTF-8 bytes.
export const SLOT = { beat: 0, attempts: 1, idLength: 2 } as const;
export const ID_OFFSET = 16;
const ID_MAX = 240;
export const SHARED_BYTES = ID_OFFSET + ID_MAX;

const encoder = new TextEncoder();

/** How often the main loop proves it is alive. */
const BEAT_MS = 100;

/** Reads the blamed job from the shared memory (the thread's side); null when none. */
export function readBlamedJob(shared: SharedArrayBuffer): BlamedJob | null {
  const slots = new Int32Array(shared, 0, ID_OFFSET / 4);
  const length = Atomics.load(slots, SLOT.idLength);
  if (length <= 0) return null;
  const id = Buffer.from(new Uint8Array(shared, ID_OFFSET, length)).toString('utf8');
  return { id, attempts: Atomics.load(slots, SLOT.attempts) };
}

export class StallWatchdog {
  private readonly shared = new SharedArrayBuffer(SHARED_BYTES);
  private readonly slots = new Int32Array(this.shared, 0, ID_OFFSET / 4);
  private readonly idBytes = new Uint8Array(this.shared, ID_OFFSET, ID_MAX);
  private readonly beat: NodeJS.Timeout;
  private readonly thread: Worker;
  private blamed: BlamedJob | null = null;

  constructor(
    options: StallWatchdogOptions & {
      readonly owner: string;
      /** Told when the thread itself fails: the worker then runs without a watchdog. */
      readonly onError: (err: unknown) => void;
    },
  ) {
    const { onError, ...rest } = options;
    const data: StallWatchdogData = { ...rest, shared: this.shared };
    this.thread = new Worker(path.join(__dirname, 'stall-watchdog-thread.js'), { workerData: data });
    // The watchdog never keeps the worker alive, and a failure of its own is not a stall.
    this.thread.unref();
    this.thread.on('error', onError);
    this.beat = setInterval(() => Atomics.add(this.slots, SLOT.beat, 1), BEAT_MS);
    this.beat.unref();
  }

  /**
   * Runs synchronous work on `job`'s account: a stall inside it is blamed on that job. The runner
   * wraps each handler's synchronous start in it; handlers wrap CPU work that follows an await
   * (JobContext.cpu).
   */
  run<T>(job: BlamedJob, work: () => T): T {
    const previous = this.blamed;
    this.blame(job);
    try {
      return work();
    } finally {
      this.blame(previous);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.beat);
    await this.thread.terminate();
  }

  private blame(job: BlamedJob | null): void {
    this.blamed = job;
    if (job === null) {
      Atomics.store(this.slots, SLOT.idLength, 0);
      return;
    }
    const { written } = encoder.encodeInto(job.id, this.idBytes);
    // An id longer than the slot is not blamed rather than blamed on a truncated id.
    const fits = written === Buffer.byteLength(job.id);
    Atomics.store(this.slots, SLOT.attempts, job.attempts);
    Atomics.store(this.slots, SLOT.idLength, fits ? written : 0);
  }
}
