// A small, forgiving MIME reader (RFC 2045, 2046) for delivery reports: multipart bodies, embedded
// messages (message/rfc822, text/rfc822-headers) and decoded text of the parts a report is read from.
import type { HeaderField } from './header-fields';
import { firstField, parseContentType, parseHeaderBlock, splitHeaderBody } from './header-fields';
import { trimStartChars } from '../../shared/text';
import { decodeBytes, decodeTransfer } from './transfer-decoding';

export interface MimePart {
  readonly headers: readonly HeaderField[];
  /** Lower-cased media type, "text/plain" when absent (RFC 2045 §5.2). */
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
  /** Decoded text of a textual leaf part; empty for multiparts and binary parts. */
  readonly text: string;
  /** Parts of a multipart, or the one embedded message of a message/rfc822 part. */
  readonly children: readonly MimePart[];
}

const MAX_DEPTH = 12;

/**
 * Bounds on the work one report can ask for (issue 17 finding 2): reports are attacker text
 * (anyone can mail `*@bounce.<verified domain>`), and what a report says is in its first parts and
 * first kilobytes. Past these limits the rest is ignored, as a truncated report would be.
 */
export const REPORT_LIMITS = {
  /** Bytes of a report that are read at all; the tail of a long returned message is dropped. */
  maxReportBytes: 1024 * 1024,
  /** MIME entities parsed per message (all levels together). */
  maxParts: 256,
  /** Messages read from an mbox-style concatenation. */
  maxMessages: 16,
  /** Decoded text kept per textual part. */
  maxPartTextBytes: 64 * 1024,
  /** Characters of the human-readable text (all text parts together) the classifiers read. */
  maxReportTextChars: 64 * 1024,
} as const;

/** Entities still allowed in the message being parsed. */
interface PartBudget {
  parts: number;
}

/** Types whose bodies are read as text. */
function isTextual(type: string): boolean {
  return (
    type.startsWith('text/') ||
    type === 'message/delivery-status' ||
    type === 'message/global-delivery-status' ||
    type === 'message/feedback-report' ||
    type === 'message/disposition-notification' ||
    type === 'message/rfc822-headers' ||
    type === 'message/global-headers' ||
    type === 'application/json'
  );
}

/** Turns the input into a latin1 "byte string" with LF line ends. */
export function toByteString(raw: Buffer | string): string {
  const bytes =
    typeof raw === 'string' ? Buffer.from(raw, 'utf8').toString('latin1') : raw.toString('latin1');
  return bytes.replace(/\r\n?/g, '\n');
}

/** The report bytes that are read, as a byte string (see REPORT_LIMITS.maxReportBytes). */
function boundedByteString(raw: Buffer | string): string {
  const max = REPORT_LIMITS.maxReportBytes;
  if (typeof raw === 'string') return toByteString(raw.length > max ? raw.slice(0, max) : raw);
  return toByteString(raw.length > max ? raw.subarray(0, max) : raw);
}

function newBudget(): PartBudget {
  return { parts: REPORT_LIMITS.maxParts };
}

// An mbox "From " separator line (RFC 4155): "From sender Thu Apr 29 23:34:45 2015".
const MBOX_FROM = /\n(?=From \S+ +\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d (?:\d{4}|\S+ \d{4})\n[\w-]+:)/;

/**
 * Parses each message of an mbox-style concatenation (a single message gives one). A "From " line
 * only starts a new message after a multipart message has closed (RFC 2046 §5.1.1 epilogue);
 * inside a plain body it is part of a quoted message.
 */
export function parseMessages(raw: Buffer | string): MimePart[] {
  const chunks = boundedByteString(raw).split(MBOX_FROM);
  const messages: MimePart[] = [];
  let pending: string[] = [];
  // Where the pending message closes: its head is its first chunk's, so it is read once, and each
  // later chunk is searched once (re-parsing the growing message per chunk was quadratic).
  let close: string | null = null;
  for (const chunk of chunks) {
    if (messages.length >= REPORT_LIMITS.maxMessages) break;
    if (pending.length === 0) close = closeDelimiter(chunk);
    pending.push(chunk);
    if (close !== null && chunk.includes(close)) {
      messages.push(parseEntity(pending.join('\n'), 0, 'text/plain', newBudget()));
      pending = [];
    }
  }
  const rest = pending.join('\n');
  if (rest.trim() !== '' && messages.length < REPORT_LIMITS.maxMessages)
    messages.push(parseEntity(rest, 0, 'text/plain', newBudget()));
  return messages;
}

/** The close delimiter of a multipart message (RFC 2046 §5.1.1) from its headers, or null. */
function closeDelimiter(text: string): string | null {
  const ct = parseContentType(firstField(parseHeaderBlock(splitHeaderBody(text).head), 'content-type'));
  const boundary = ct.params.get('boundary');
  return ct.type.startsWith('multipart/') && boundary !== undefined ? `--${boundary}--` : null;
}

function parseEntity(text: string, depth: number, defaultType: string, budget: PartBudget): MimePart {
  budget.parts--;
  const { head, body } = splitHeaderBody(text);
  const headers = parseHeaderBlock(head);
  return buildPart(headers, body, depth, defaultType, budget);
}

/** Decoded text of a textual part, cut at REPORT_LIMITS.maxPartTextBytes. */
function partText(bytes: string, charset: string | null): string {
  const max = REPORT_LIMITS.maxPartTextBytes;
  return decodeBytes(bytes.length > max ? bytes.slice(0, max) : bytes, charset);
}

function buildPart(
  headers: HeaderField[],
  rawBody: string,
  depth: number,
  defaultType: string,
  budget: PartBudget,
): MimePart {
  const ctValue = firstField(headers, 'content-type');
  const { type, params } = ctValue === null ? parseContentType(defaultType) : parseContentType(ctValue);
  const encoding = firstField(headers, 'content-transfer-encoding');

  if (type.startsWith('multipart/') && depth < MAX_DEPTH) {
    const boundary = params.get('boundary');
    const pieces = boundary === undefined ? null : splitMultipart(rawBody, boundary, budget.parts);
    if (pieces !== null) {
      // RFC 2046 §5.1.5: parts of multipart/digest default to message/rfc822.
      const childDefault = type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
      const children: MimePart[] = [];
      for (const p of pieces) {
        if (budget.parts <= 0) break;
        children.push(parseEntity(p, depth + 1, childDefault, budget));
      }
      return { headers, type, params, text: '', children };
    }
    // A multipart whose boundary never appears is read as plain text.
    return { headers, type: 'text/plain', params, text: partText(rawBody, null), children: [] };
  }

  const bytes = decodeTransfer(rawBody, encoding);
  if ((type === 'message/rfc822' || type === 'message/global') && depth < MAX_DEPTH && budget.parts > 0) {
    return {
      headers,
      type,
      params,
      text: '',
      children: [parseEntity(trimStartChars(bytes, '\n'), depth + 1, 'text/plain', budget)],
    };
  }
  if (
    type === 'text/rfc822-headers' ||
    type === 'message/rfc822-headers' ||
    type === 'message/global-headers'
  ) {
    const headerBlock = trimStartChars(bytes.slice(0, REPORT_LIMITS.maxPartTextBytes), '\n');
    const inner = parseEntity(`${headerBlock}\n\n`, depth + 1, 'text/plain', budget);
    return {
      headers,
      type,
      params,
      text: partText(bytes, params.get('charset') ?? null),
      children: [inner],
    };
  }
  const text = isTextual(type) ? partText(bytes, params.get('charset') ?? null) : '';
  return { headers, type, params, text, children: [] };
}

/** Splits a multipart body at its boundary lines (at most `max` parts); null when no boundary line occurs. */
function splitMultipart(body: string, boundary: string, max: number): string[] | null {
  const delimiter = `--${boundary}`;
  const lines = body.split('\n');
  const parts: string[] = [];
  let current: string[] | null = null;
  let seen = false;
  for (const line of lines) {
    if (line.startsWith(delimiter)) {
      const tail = line.slice(delimiter.length);
      if (tail.trim() === '' || tail.trim() === '--') {
        seen = true;
        if (current !== null) parts.push(current.join('\n'));
        if (parts.length >= max) return parts;
        current = tail.trim() === '--' ? null : [];
        continue;
      }
    }
    current?.push(line);
  }
  // A missing close delimiter is common in truncated reports; keep what was read.
  if (current !== null) parts.push(current.join('\n'));
  return seen ? parts : null;
}

/** Every part below `root` in document order, not descending into embedded messages. */
export function leafParts(root: MimePart): MimePart[] {
  const out: MimePart[] = [];
  const visit = (p: MimePart): void => {
    if (p.type.startsWith('multipart/')) {
      for (const c of p.children) visit(c);
    } else {
      out.push(p);
    }
  };
  visit(root);
  return out;
}
