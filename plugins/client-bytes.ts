/**
 * The client's bytes of a message at end of data, shared by mailroom-inbound (what it
 * stores) and mailroom-guard (the header-section check). Folder plugins are loaded with
 * a real `require`, so both get this one module and its one map.
 */
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import type { HarakaTransaction } from './types';

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

/** In the `data` hook: where the client's first byte will be (after Haraka's Received line). */
export function noteClientStart(transaction: HarakaTransaction): void {
  receivedPrefix.set(transaction, rawStream(transaction).bytes_read);
}
