/**
 * "There is work": the api tells the worker it committed a send, so the send does not
 * wait for the worker's idle poll (issue 18 item 11: nothing between accept and delivery
 * may wait on a poll timer). The message travels over the IPC channels the supervisor
 * gives its children (src/supervisor.ts relays it to the worker). It is only a hint: a
 * lost one, or a process started alone without a supervisor, costs at most WORKER_POLL_MS,
 * the poll that stays as the fallback.
 */
export const WORK_EVENT = 'work';

export interface WorkSignal {
  readonly event: typeof WORK_EVENT;
}

export function isWorkSignal(m: unknown): m is WorkSignal {
  return (m as { event?: unknown } | null)?.event === WORK_EVENT;
}

/** Tells the supervisor (and through it the worker) that a commit created work; a no-op without one. */
export function signalWork(): void {
  if (typeof process.send !== 'function' || !process.connected) return;
  // A full or closing channel only loses the hint; the worker's poll still finds the job.
  process.send({ event: WORK_EVENT } satisfies WorkSignal, undefined, {}, () => undefined);
}

/** Runs `wake` whenever the supervisor relays a work signal to this process. */
export function onWorkSignal(wake: () => void): void {
  process.on('message', (m: unknown) => {
    if (isWorkSignal(m)) wake();
  });
}
