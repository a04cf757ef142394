/**
 * Lifetime of the process Haraka runs in. Haraka runs inside the mta process
 * (src/mta/haraka-process.ts), whose parent, the supervisor, holds an IPC channel
 * to it (src/supervisor.ts; `spawnHaraka` children have one to their parent the
 * same way). If that parent dies without stopping us (crash, SIGKILL), the
 * channel closes and we exit rather than keep the SMTP ports from its successor.
 * Accepted mail is already on disk: exiting loses nothing. So nothing may
 * disconnect the channel on purpose (src/mta/main.ts only sends `mta_ready`).
 */
import type { HarakaPlugin } from '../types';

export function register(this: HarakaPlugin): void {
  // Started by hand (`haraka -c`), there is no channel and nothing to watch.
  if (typeof process.send !== 'function') return;
  // Unreferenced: the channel must not keep Haraka alive during its graceful
  // shutdown, which waits for the event loop to drain.
  process.channel?.unref();
  // No logging on the way out: stdout is a pipe to the dead parent.
  process.once('disconnect', () => process.exit(1));
  this.logdebug('exits with the mta process');
}
