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
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import constants from 'haraka-constants';
import { acceptInbound } from '../../src/mta/inbound-intake';
import { routesOf } from '../../src/mta/inbound-routes';
import { mtaIntakeCommit, mtaRawStore } from '../../src/mta/mta-runtime';
import { defer } from '../../src/mta/smtp-verdict';
import { dsnOf } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin, HarakaTransaction } from '../types';

const QUEUE_FAILED = defer(451, '4.3.0', 'Could not store the message; try again later');

/** haraka-message-stream, the part used here. */
interface RawMessageStream {
  headers: string[];
  /** Bytes received so far, as stored (dot-stuffed wire lines). */
  readonly bytes_read: number;
  pipe(destination: NodeJS.WritableStream, options?: Record<string, unknown>): unknown;
}

function rawStream(transaction: HarakaTransaction): RawMessageStream {
  return transaction.message_stream as unknown as RawMessageStream;
}

/**
 * Haraka writes its own `Received:` line into the message stream as the first
 * "data" (connection.js cmd_data, before the `data` hook). Its length, taken in
 * our `data` hook, is what to skip to get back to the client's first byte.
 */
const receivedPrefix = new WeakMap<object, number>();

/** Drops the first `count` bytes, and checks they were Haraka's Received line. */
function skipPrefix(count: number): Transform {
  let left = count;
  let checked = count === 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!checked) {
        checked = true;
        if (!chunk.subarray(0, 9).equals(Buffer.from('Received:'))) {
          done(new Error('message stream does not start with our Received line'));
          return;
        }
      }
      if (left >= chunk.length) {
        left -= chunk.length;
        done();
        return;
      }
      const rest = chunk.subarray(left);
      left = 0;
      done(null, rest);
    },
  });
}

/**
 * The message exactly as the client sent it (dot-unstuffed, CRLF): Haraka's
 * stored lines without its Received line. By end of data Haraka has also added
 * Authentication-Results (and renamed any incoming one) in the transaction's
 * header list, which message_stream replays INSTEAD of the stored header
 * lines; with that list emptied for the duration of pipe(), which reads it
 * synchronously, the stream replays the stored lines, headers included.
 */
export function clientBytes(transaction: HarakaTransaction): Readable {
  const stream = rawStream(transaction);
  const out = skipPrefix(receivedPrefix.get(transaction) ?? 0);
  const headers = stream.headers;
  stream.headers = [];
  try {
    stream.pipe(out);
  } finally {
    stream.headers = headers;
  }
  return out;
}

interface Helo {
  readonly hello?: { readonly host?: string | null };
}

export function register(this: HarakaPlugin): void {
  this.register_hook('data', 'markClientStart');
  this.register_hook('queue', 'storeInbound');
}

export function markClientStart(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  if (transaction !== null) receivedPrefix.set(transaction, rawStream(transaction).bytes_read);
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
