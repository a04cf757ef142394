// The parse bounds of a received message: one linear pass over its structure before
// mailparser sees it (docs/inbound.md, "Messages that cannot be parsed").

/**
 * Bounds on parsing one received message (docs/inbound.md, "Messages that cannot be
 * parsed"): past any of them the message is not parsed at all and is stored unparsed,
 * so a hostile message cannot hold the worker's CPU or memory. Part and header-block
 * bounds are enforced by mailparser too (its maxChildNodes and maxHeadSize).
 */
export const MAX_INBOUND_MIME_PARTS = 1000;
/** Multipart and embedded-message levels. */
export const MAX_INBOUND_MIME_DEPTH = 50;
/** Header fields in one part's header block. */
export const MAX_INBOUND_HEADER_FIELDS = 1000;
/** Bytes of one part's header block. */
export const MAX_INBOUND_HEADER_BYTES = 256 * 1024;
/** Longest unfolded value of a field the shape scan keeps (a boundary is at most 70 characters). */
const MAX_CONTENT_TYPE_CHARS = 4096;

/**
 * A message that parsing can never succeed on (the same bytes fail the same way): stored
 * unparsed with `reason` rather than retried. Told apart by its brand, like PermanentJobError.
 */
const UNPARSABLE = Symbol.for('mailroom.unparsable-message');

export class UnparsableMessageError extends Error {
  readonly [UNPARSABLE] = true;

  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnparsableMessageError';
  }
}

export function isUnparsableMessageError(error: unknown): error is UnparsableMessageError {
  return (
    typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[UNPARSABLE] === true
  );
}

/** The `boundary` parameter of an unfolded Content-Type value, when it names a multipart one. */
function multipartBoundary(contentType: string): string | null {
  const lower = contentType.toLowerCase();
  if (!lower.trimStart().startsWith('multipart/')) return null;
  const at = lower.indexOf('boundary=');
  if (at < 0) return null;
  let value = contentType.slice(at + 'boundary='.length).trimStart();
  if (value.startsWith('"')) {
    const close = value.indexOf('"', 1);
    value = close < 0 ? value.slice(1) : value.slice(1, close);
  } else {
    let stop = value.length;
    for (const c of [';', ' ', '\t', '\r']) {
      const i = value.indexOf(c);
      if (i >= 0 && i < stop) stop = i;
    }
    value = value.slice(0, stop);
  }
  return value === '' ? null : value;
}

/** The header fields the shape scan reads: they decide where parts and embedded messages are. */
const KEPT_FIELDS = new Set(['content-type', 'content-transfer-encoding', 'content-disposition']);
const MAX_KEPT_NAME = 'content-transfer-encoding'.length + 2;

/**
 * Whether a part's body is parsed as a message of its own, as mailparser decides it: a
 * `message/rfc822` part, not transfer-encoded, shown inline (any other stays an attachment).
 */
function isEmbeddedMessage(fields: ReadonlyMap<string, string>): boolean {
  const token = (name: string): string => ((fields.get(name) ?? '').split(';')[0] ?? '').trim().toLowerCase();
  return (
    token('content-type') === 'message/rfc822' &&
    ['', '7bit', '8bit', 'binary'].includes(token('content-transfer-encoding')) &&
    token('content-disposition') === 'inline'
  );
}
/** Bytes scanned between two yields to the event loop. */
const YIELD_BYTES = 1024 * 1024;
/** Longest delimiter line compared against the open boundaries ("--", 70 characters, "--", with room). */
const MAX_DELIMITER_CHARS = 200;

/**
 * One linear pass over the lines of `raw`, before mailparser sees it: counts MIME parts,
 * nesting levels (multiparts and embedded messages) and the header fields and bytes of
 * each header block, and throws {@link UnparsableMessageError} at the first bound
 * crossed, yielding to the event loop every MiB. It follows the structure the way a
 * MIME parser does, but approximately (mailparser's own part and header-size limits
 * stay on as the backstop); each delimiter line is compared with at most
 * {@link MAX_INBOUND_MIME_DEPTH} open boundaries.
 */
export async function checkMimeShape(raw: Buffer): Promise<void> {
  /** Open levels, innermost last: a multipart's delimiter, or null for an embedded message. */
  const open: (string | null)[] = [];
  let parts = 1;
  let inHeader = true;
  let fields = 0;
  let headerBytes = 0;
  /** The fields of the header block being read that decide its structure, unfolded. */
  const kept = new Map<string, string>();
  /** The kept field a folded line continues, if any. */
  let continuing: string | null = null;
  const enter = (level: string | null): void => {
    open.push(level);
    if (open.length > MAX_INBOUND_MIME_DEPTH) {
      throw new UnparsableMessageError(`MIME structure nested deeper than ${MAX_INBOUND_MIME_DEPTH} levels`);
    }
  };
  const newPart = (): void => {
    parts++;
    if (parts > MAX_INBOUND_MIME_PARTS) {
      throw new UnparsableMessageError(`more than ${MAX_INBOUND_MIME_PARTS} MIME parts`);
    }
    inHeader = true;
  };
  /** Ends the header block being read (a delimiter line can end it early, as in mailparser). */
  const endHeader = (): void => {
    kept.clear();
    continuing = null;
    fields = 0;
    headerBytes = 0;
  };
  /** A delimiter of an open multipart: a new part or the multipart's end; false otherwise. */
  const delimiter = (line: string): boolean => {
    for (let i = open.length - 1; i >= 0; i--) {
      const d = open[i];
      if (d === null || d === undefined || !line.startsWith(d)) continue;
      const rest = line.slice(d.length);
      if (rest !== '' && rest !== '--') continue;
      endHeader();
      open.length = rest === '' ? i + 1 : i;
      if (rest === '') newPart();
      else inHeader = false;
      return true;
    }
    return false;
  };
  for (let start = 0, yieldAt = YIELD_BYTES; start < raw.length;) {
    if (start >= yieldAt) {
      // Other jobs of the worker run between slices (about 30 ms of the worst input each).
      yieldAt = start + YIELD_BYTES;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const lf = raw.indexOf(0x0a, start);
    const next = lf < 0 ? raw.length : lf + 1;
    const end = lf < 0 ? raw.length : lf > start && raw[lf - 1] === 0x0d ? lf - 1 : lf;
    const maybeDelimiter = raw[start] === 0x2d && raw[start + 1] === 0x2d && open.length > 0;
    if (
      maybeDelimiter &&
      delimiter(raw.toString('latin1', start, Math.min(end, start + MAX_DELIMITER_CHARS)).trimEnd())
    ) {
      // handled: a new part's header block or the multipart's epilogue follows
    } else if (inHeader) {
      headerBytes += next - start;
      if (headerBytes > MAX_INBOUND_HEADER_BYTES) {
        throw new UnparsableMessageError(`a header block larger than ${MAX_INBOUND_HEADER_BYTES} bytes`);
      }
      if (end === start) {
        // The end of a header block: the part's body starts.
        inHeader = false;
        const boundary = multipartBoundary(kept.get('content-type') ?? '');
        const embedded = isEmbeddedMessage(kept);
        endHeader();
        if (boundary !== null) enter(`--${boundary}`);
        else if (embedded) {
          enter(null);
          newPart(); // the embedded message's own header block follows
        }
      } else if (raw[start] === 0x20 || raw[start] === 0x09) {
        const value = continuing === null ? undefined : kept.get(continuing);
        if (continuing !== null && value !== undefined && value.length < MAX_CONTENT_TYPE_CHARS) {
          kept.set(
            continuing,
            value + raw.toString('latin1', start, Math.min(end, start + MAX_CONTENT_TYPE_CHARS)),
          );
        }
      } else {
        fields++;
        if (fields > MAX_INBOUND_HEADER_FIELDS) {
          throw new UnparsableMessageError(
            `more than ${MAX_INBOUND_HEADER_FIELDS} header fields in one part`,
          );
        }
        const colon = raw.indexOf(0x3a, start);
        const name =
          colon < 0 || colon > Math.min(end, start + MAX_KEPT_NAME)
            ? ''
            : raw.toString('latin1', start, colon).trim().toLowerCase();
        continuing = KEPT_FIELDS.has(name) ? name : null;
        if (continuing !== null) {
          kept.set(
            continuing,
            raw.toString('latin1', colon + 1, Math.min(end, colon + 1 + MAX_CONTENT_TYPE_CHARS)),
          );
        }
      }
    }
    start = next;
  }
}
