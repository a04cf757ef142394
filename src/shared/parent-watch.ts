/**
 * Stops this process the way SIGTERM does when the supervisor that started it
 * goes away without stopping it (crash, SIGKILL): the supervisor gives every
 * child an IPC channel (src/supervisor.ts), and its end closing is the signal.
 * Without this an orphaned api or worker would keep its port and its claims
 * from the next supervisor's children. Started alone (no channel), it does nothing.
 * The mta has the same watch inside Haraka (plugins/mailroom-process).
 */
export function stopWhenParentGoes(): void {
  if (typeof process.send !== 'function') return;
  // Unreferenced: the channel must not keep a stopping process alive.
  process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
