/** What a child of the supervisor sends over IPC once it serves (the mta sends `mta_ready`). */
export const PROCESS_READY_EVENT = 'process_ready';

/**
 * Tells the supervisor this process is up: a failure after this is a crash to
 * restart from, not a start-up that cannot succeed (src/supervisor.ts, issue 21
 * item 3). Without an IPC channel (run alone) it does nothing.
 */
export function reportReady(): void {
  process.send?.({ event: PROCESS_READY_EVENT }, undefined, {}, () => undefined);
}
