/**
 * The free-space floor on every SMTP listener (issue 17, finding 6): while a
 * volume the appliance writes to is under DISK_FREE_FLOOR_MB, MAIL and end of
 * DATA are answered 452 4.3.1 on the MX and submission, and on the injection
 * listener under half of it (src/mta/disk-verdict.ts). Listed before the other
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
  this.register_hook('mail', 'checkFreeSpace');
  this.register_hook('data_post', 'checkFreeSpace');
}

export function checkFreeSpace(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const listener = listenerOf(connection.local.port, state.injectPort);
  // An unauthenticated injection session gets mailroom-inject's 530, not the state of the disk.
  if (listener === 'inject' && !connection.relaying) {
    next();
    return;
  }
  Promise.resolve()
    .then(() => mtaStorageGuard().shortage(floorFraction(listener)))
    .then(
      (shortage) => {
        if (shortage !== undefined) {
          connection.logwarn(this, 'refused: disk space under the floor', {
            event: 'mta_refused_disk_floor',
            listener,
            reason: shortage,
          });
        }
        answer(next, diskVerdict(shortage));
      },
      (err: unknown) => {
        connection.logerror(this, 'free-space check failed', { event: 'mta_disk_check_failed', err });
        answer(next, diskVerdict(String(err)));
      },
    );
}
