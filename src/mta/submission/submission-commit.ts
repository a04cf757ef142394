import type { WriterContext } from '../../db/writer-thread';
import { submitMessage } from '../../modules/sending/submit-message';
import type { Submitter } from './submission-auth';

/**
 * One submitted message at end of DATA, as plain data: it crosses to the mta's
 * writer thread (unit `mta.submission`), where submitMessage() runs.
 */
export interface SubmissionRequest {
  readonly submitter: Submitter;
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  /**
   * The message as the client sent it (dot-unstuffed). Its ArrayBuffer is moved to
   * the thread, not copied, when the bytes are all of it (messageBytes()).
   */
  readonly raw: Uint8Array;
}

/** Commits a submission in the writer thread; resolves with the email id once the commit returned. */
export type SubmissionCommit = (request: SubmissionRequest) => Promise<{ readonly id: string }>;

/**
 * The thread side of `mta.submission`: the API's checks and writes (submit-message.ts,
 * commit-message.ts) as one unit of the thread's group commit. A refusal is thrown
 * as the spec's AppError and crosses back whole (src/shared/wire-error.ts).
 */
export function commitSubmission(ctx: WriterContext, request: SubmissionRequest): Promise<{ id: string }> {
  const { submitter, raw } = request;
  return submitMessage(
    {
      db: ctx.db,
      writes: ctx.writes,
      config: ctx.config,
      userId: submitter.userId,
      apiKeyId: submitter.apiKeyId,
      onlyDomainId: submitter.domainId,
    },
    {
      mailFrom: request.mailFrom,
      rcptTo: request.rcptTo,
      // Structured clone gives a plain Uint8Array; a Buffer over the same bytes.
      raw: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
    },
  );
}

/**
 * The message stream read to its end into one ArrayBuffer of its own (not Node's
 * shared Buffer pool), so that it can be transferred to the writer thread.
 */
export async function messageBytes(stream: AsyncIterable<Buffer | Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    size += bytes.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The buffers to move with `request` (none when its bytes share an ArrayBuffer with others). */
export function submissionTransfer(request: SubmissionRequest): ArrayBuffer[] {
  const { buffer, byteOffset, byteLength } = request.raw;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength
    ? [buffer]
    : [];
}
