/**
 * Finds line breaks that are not CRLF in message data.
 *
 * RFC 5321 §2.3.8: CR and LF MUST only be sent together, as CRLF. A bare CR or
 * LF is what SMTP smuggling exploits: `<LF>.<CR><LF>` or `<CR>.<CR><LF>` end
 * the message for one server and not for another, so the rest of the "message"
 * becomes commands on the next hop. Haraka 3.3.4 already refuses bare LF; bare
 * CR passes its line reader, so every message is scanned here before it is
 * queued.
 */
const CR = 0x0d;
const LF = 0x0a;
const DOT = 0x2e;

export interface LineBreakFault {
  readonly kind: 'bare-cr' | 'bare-lf';
  /** A "." line delimited by a bare CR or LF: an end-of-data look-alike (smuggling attempt). */
  readonly smuggling: boolean;
  /** Byte offset of the offending CR or LF in the scanned data. */
  readonly offset: number;
}

const isBreak = (b: number): boolean => b === CR || b === LF;

/**
 * Streaming scanner: push chunks as they come (any split), then `end()`.
 * Judging a byte needs two bytes of context on each side, so the last bytes of
 * a chunk are judged when the next chunk (or the end) arrives. Only the first
 * fault is kept: one is enough to refuse the message.
 */
export class LineBreakScanner {
  #carry: Buffer = Buffer.alloc(0);
  /** Offset, in the whole stream, of #carry[0]. */
  #carryStart = 0;
  /** Offset of the first byte not yet judged. */
  #judged = 0;
  #fault: LineBreakFault | undefined;

  get fault(): LineBreakFault | undefined {
    return this.#fault;
  }

  push(chunk: Buffer): void {
    if (this.#fault !== undefined || chunk.length === 0) return;
    const view = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    const start = this.#carryStart;
    // Bytes whose two successors are known can be judged now.
    const until = start + view.length - 2;
    this.#judge(view, start, until);
    // Keep what is unjudged plus two bytes of look-behind; copy so a big chunk is not retained.
    const keepFrom = Math.max(start, this.#judged - 2);
    this.#carry = Buffer.from(view.subarray(keepFrom - start));
    this.#carryStart = keepFrom;
  }

  end(): LineBreakFault | undefined {
    if (this.#fault === undefined)
      this.#judge(this.#carry, this.#carryStart, this.#carryStart + this.#carry.length);
    this.#carry = Buffer.alloc(0);
    return this.#fault;
  }

  /** Judges every CR/LF at stream offsets [#judged, until) found in `view` (which starts at `start`). */
  #judge(view: Buffer, start: number, until: number): void {
    const at = (offset: number): number => {
      const i = offset - start;
      return i >= 0 && i < view.length ? (view[i] ?? -1) : -1;
    };
    let i = this.#judged - start;
    const stop = until - start;
    while (i < stop) {
      const nextCr = view.indexOf(CR, i);
      const nextLf = view.indexOf(LF, i);
      const found = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextCr, nextLf);
      if (found === -1 || found >= stop) break;
      const offset = start + found;
      const bare = view[found] === CR ? at(offset + 1) !== LF : at(offset - 1) !== CR;
      if (bare) {
        // A "." with a line break on its other side, next to this bare one: `<CR>.<CR><LF>`, `<LF>.<LF>` ...
        const smuggling =
          (at(offset - 1) === DOT && isBreak(at(offset - 2))) ||
          (at(offset + 1) === DOT && isBreak(at(offset + 2)));
        this.#fault = { kind: view[found] === CR ? 'bare-cr' : 'bare-lf', smuggling, offset };
        return;
      }
      i = found + 1;
    }
    this.#judged = Math.max(this.#judged, until);
  }
}

/**
 * Scans a whole stream (Haraka's message_stream replays the message). Reads to
 * the end even after a fault: abandoning a replay half-way is not worth its
 * edge cases for bytes already in memory or on local disk.
 */
export async function scanLineBreaks(chunks: AsyncIterable<Buffer>): Promise<LineBreakFault | undefined> {
  const scanner = new LineBreakScanner();
  for await (const chunk of chunks) scanner.push(chunk);
  return scanner.end();
}
