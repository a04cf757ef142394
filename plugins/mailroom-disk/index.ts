/**
 * The free-space floor on every SMTP listener (issue 17, finding 6): while a
 * volume the appliance writes to is under DISK_FREE_FLOOR_MB, MAIL and end of
 * DATA are answered 452 4.3.1 on the MX and submission, and on the injection
 * listener under a quarter of it (src/mta/disk-verdict.ts). At end of DATA the
 * message's own size must fit above the floor too. Listed before the other
 * plugins: their MAIL and data_post hooks answer OK, which ends the chain.
 * The reading is cached for a second (src/shared/disk-space.ts).
 */
import { diskVerdict, floorFraction } from '../../src/mta/disk-verdict';
import { listenerOf } from '../../src/mta/listeners';
import { mtaStorageGuard } from '../../src/mta/mta-runtime';
import { iniInteger } from '../ini';
import { answer } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

const state = { injectPort: 0 };

export function register(this: HarakaPlugin): void {
  state.injectPort = iniInteger(this.config.get('mailroom.ini'), 'mailroom.ini', 'inject', 'port');
  this.register_hook('mail', 'checkAtMail');
  this.register_hook('data_post', 'checkAtEndOfData');
}

/** MAIL: is there room at all (the size is not known yet). */
export function checkAtMail(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  check(this, next, connection, 0);
}

/** End of DATA: room for this message, which counts against the floor until the next reading. */
export function checkAtEndOfData(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  check(this, next, connection, connection.transaction?.data_bytes ?? 0);
}

function check(plugin: HarakaPlugin, next: HarakaNext, connection: HarakaConnection, bytes: number): void {
  const listener = listenerOf(connection.local.port, state.injectPort);
  // An unauthenticated injection session gets mailroom-inject's 530, not the state of the disk.
  if (listener === 'inject' && !connection.relaying) {
    next();
    return;
  }
  Promise.resolve()
    .then(() => mtaStorageGuard().shortage({ fraction: floorFraction(listener), bytes }))
    .then(
      (shortage) => {
        if (shortage !== undefined) {
          connection.logwarn(plugin, 'refused: disk space under the floor', {
            event: 'mta_refused_disk_floor',
            listener,
            reason: shortage,
          });
        }
        answer(next, diskVerdict(shortage));
      },
      (err: unknown) => {
        connection.logerror(plugin, 'free-space check failed', { event: 'mta_disk_check_failed', err });
        answer(next, diskVerdict(String(err)));
      },
    );
}
