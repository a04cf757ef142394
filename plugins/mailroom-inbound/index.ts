/**
 * The MX's queue hook (Haraka calls `queue` for non-relaying sessions only, so
 * never for the injection listener, whose messages go to `queue_outbound`).
 * For each accepted message: the client's bytes written to
 * `$DATA_DIR/inbound/` and fsynced (file and directory) on SQLite, then in ONE database
 * transaction a `bounce-processing` job for the return-path recipients and an
 * `inbound-processing` job per receiving domain (on PostgreSQL with the bytes as
 * `raw_messages` rows in that same transaction), committed by the mta's writer
 * thread (concurrent sessions share that transaction: group commit, off Haraka's
 * event loop; src/mta/mta-runtime.ts); only then 250. Any failure is
 * 451: the client keeps the message and retries (src/mta/inbound-intake.ts).
 */
import constants from 'haraka-constants';
import { acceptInbound } from '../../src/mta/inbound-intake';
import { routesOf } from '../../src/mta/inbound-routes';
import { mtaIntakeCommit, mtaRawStore } from '../../src/mta/mta-runtime';
import { defer } from '../../src/mta/smtp-verdict';
import { clientBytes, noteClientStart } from '../client-bytes';
import { dsnOf } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

const QUEUE_FAILED = defer(451, '4.3.0', 'Could not store the message; try again later');

interface Helo {
  readonly hello?: { readonly host?: string | null };
}

export function register(this: HarakaPlugin): void {
  this.register_hook('data', 'markClientStart');
  this.register_hook('queue', 'storeInbound');
}

export function markClientStart(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  if (transaction !== null) noteClientStart(transaction);
  next();
}

export function storeInbound(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  if (transaction === null) {
    next(constants.denysoft, dsnOf(QUEUE_FAILED));
    return;
  }
  const recipients = routesOf(transaction);
  const envelope = {
    mailFrom: transaction.mail_from?.address ?? '',
    remoteIp: connection.remote.ip,
    helo: (connection as unknown as Helo).hello?.host ?? null,
    receivedAt: new Date().toISOString(),
  };
  // Inside the chain: mtaIntakeCommit() and mtaRawStore() can throw too, and must end up in the 451.
  Promise.resolve()
    .then(() =>
      acceptInbound({
        commit: mtaIntakeCommit(),
        store: mtaRawStore(),
        message: () => clientBytes(transaction),
        envelope,
        recipients,
      }),
    )
    .then(
      (jobs) => {
        connection.loginfo(this, 'inbound message stored', {
          event: 'mta_inbound_accepted',
          recipients: recipients.length,
          jobs,
          size: transaction.data_bytes,
        });
        next(constants.ok, 'Message accepted');
      },
      (err: unknown) => {
        connection.logerror(this, 'could not store an inbound message', {
          event: 'mta_inbound_failed',
          error: err instanceof Error ? err.message : String(err),
        });
        next(constants.denysoft, dsnOf(QUEUE_FAILED));
      },
    );
}
