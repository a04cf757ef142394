import fsp from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';

/**
 * Haraka 3.3.4's outbound `process_delivery` (node_modules/Haraka/outbound/index.js)
 * writes each queue file through a write stream whose `error` handler (unlink the
 * temp file, reject) and `close` handler (rename it into the queue, resolve) both
 * run when a write fails: when the rename wins the race, a TRUNCATED file is queued
 * and the session answered 250 (issue 17, finding 6: a disk filling up "queued"
 * 266 KB of a 960 KB message, which then failed). Haraka exposes no hook there, so
 * mailroom-inject wraps the function on Haraka's outbound singleton: after it
 * resolves, the file it added to the queue must hold exactly the header Haraka
 * wrote plus the whole message; otherwise the file is removed and the call rejects,
 * which send_trans_email turns into a temporary failure (451) after unlinking every
 * file of the transaction. Nothing in node_modules is patched.
 */

/** The part of haraka-message-stream used here. */
export interface ReplayableMessage {
  pipe(destination: NodeJS.WritableStream, options?: Record<string, unknown>): unknown;
  once(event: 'error', listener: (err: unknown) => void): unknown;
  removeListener(event: 'error', listener: (err: unknown) => void): unknown;
}

export interface QueueTodo {
  readonly message_stream: ReplayableMessage;
}

export type ProcessDelivery = (okPaths: string[], todo: QueueTodo, hmails: unknown[]) => Promise<void>;

/** How Haraka pipes the message into the queue file (outbound/index.js process_delivery). */
const QUEUE_PIPE_OPTIONS = { dot_stuffed: false };

const VERIFIED = Symbol.for('mailroom.verified-process-delivery');

/** Bytes the message stream yields with `options`: a second reading, independent of the file's. */
export function streamedLength(
  message: ReplayableMessage,
  options: Record<string, unknown>,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const counter = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    });
    const onError = (err: unknown): void => {
      counter.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    message.once('error', onError);
    counter.once('finish', () => {
      message.removeListener('error', onError);
      resolve(bytes);
    });
    try {
      message.pipe(counter, options);
    } catch (err) {
      message.removeListener('error', onError);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/**
 * A queue file is a 4-byte big-endian header length, the JSON header (the todo),
 * then the message (outbound/index.js build_todo): its size must be exactly that.
 */
export async function checkQueueFile(file: string, messageBytes: number): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const prefix = Buffer.alloc(4);
    const { bytesRead } = await handle.read(prefix, 0, 4, 0);
    const expected = bytesRead === 4 ? 4 + prefix.readUInt32BE(0) + messageBytes : undefined;
    if (size !== expected) {
      throw new Error(
        `queue file ${path.basename(file)} holds ${size} bytes, expected ${expected ?? 'at least a header'}: not queued`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** Haraka's process_delivery, followed by the check of the file it queued. Idempotent. */
export function verifyingProcessDelivery(original: ProcessDelivery): ProcessDelivery {
  if ((original as unknown as Record<symbol, unknown>)[VERIFIED] === true) return original;
  const verifying = async function (
    this: unknown,
    okPaths: string[],
    todo: QueueTodo,
    hmails: unknown[],
  ): Promise<void> {
    const before = okPaths.length;
    await original.call(this, okPaths, todo, hmails);
    const file = okPaths[okPaths.length - 1];
    if (okPaths.length !== before + 1 || file === undefined) {
      throw new Error('outbound queue: process_delivery resolved without a queue file');
    }
    try {
      await checkQueueFile(file, await streamedLength(todo.message_stream, QUEUE_PIPE_OPTIONS));
    } catch (err) {
      // send_trans_email unlinks every path in okPaths too; this one must go whatever it does.
      await fsp.unlink(file).catch(() => undefined);
      throw err;
    }
  };
  Object.defineProperty(verifying, VERIFIED, { value: true });
  return verifying;
}
