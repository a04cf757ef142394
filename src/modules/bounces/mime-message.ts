// A small, forgiving MIME reader (RFC 2045, 2046) for delivery reports: multipart bodies, embedded
// messages (message/rfc822, text/rfc822-headers) and decoded text of the parts a report is read from.
import type { HeaderField } from './header-fields';
import { firstField, parseContentType, parseHeaderBlock, splitHeaderBody } from './header-fields';
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

/** Parses a whole message (headers and body). */
export function parseMessage(raw: Buffer | string): MimePart {
  return parseEntity(toByteString(raw), 0, 'text/plain');
}

// An mbox "From " separator line (RFC 4155): "From sender Thu Apr 29 23:34:45 2015".
const MBOX_FROM = /\n(?=From \S+ +\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d (?:\d{4}|\S+ \d{4})\n[\w-]+:)/;

/**
 * Parses each message of an mbox-style concatenation (a single message gives one). A "From " line
 * only starts a new message after a multipart message has closed (RFC 2046 §5.1.1 epilogue);
 * inside a plain body it is part of a quoted message.
 */
export function parseMessages(raw: Buffer | string): MimePart[] {
  const chunks = toByteString(raw).split(MBOX_FROM);
  const messages: MimePart[] = [];
  let pending = '';
  for (const chunk of chunks) {
    pending = pending === '' ? chunk : `${pending}\n${chunk}`;
    const part = parseEntity(pending, 0, 'text/plain');
    const boundary = part.params.get('boundary');
    if (part.type.startsWith('multipart/') && boundary !== undefined && pending.includes(`--${boundary}--`)) {
      messages.push(part);
      pending = '';
    }
  }
  if (pending.trim() !== '') messages.push(parseEntity(pending, 0, 'text/plain'));
  return messages;
}

function parseEntity(text: string, depth: number, defaultType: string): MimePart {
  const { head, body } = splitHeaderBody(text);
  const headers = parseHeaderBlock(head);
  return buildPart(headers, body, depth, defaultType);
}

function buildPart(headers: HeaderField[], rawBody: string, depth: number, defaultType: string): MimePart {
  const ctValue = firstField(headers, 'content-type');
  const { type, params } = ctValue === null ? parseContentType(defaultType) : parseContentType(ctValue);
  const encoding = firstField(headers, 'content-transfer-encoding');

  if (type.startsWith('multipart/') && depth < MAX_DEPTH) {
    const boundary = params.get('boundary');
    const pieces = boundary === undefined ? null : splitMultipart(rawBody, boundary);
    if (pieces !== null) {
      // RFC 2046 §5.1.5: parts of multipart/digest default to message/rfc822.
      const childDefault = type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
      const children = pieces.map((p) => parseEntity(p, depth + 1, childDefault));
      return { headers, type, params, text: '', children };
    }
    // A multipart whose boundary never appears is read as plain text.
    return { headers, type: 'text/plain', params, text: decodeBytes(rawBody, null), children: [] };
  }

  const bytes = decodeTransfer(rawBody, encoding);
  if ((type === 'message/rfc822' || type === 'message/global') && depth < MAX_DEPTH) {
    return {
      headers,
      type,
      params,
      text: '',
      children: [parseEntity(bytes.replace(/^\n+/, ''), depth + 1, 'text/plain')],
    };
  }
  if (
    type === 'text/rfc822-headers' ||
    type === 'message/rfc822-headers' ||
    type === 'message/global-headers'
  ) {
    const inner = parseEntity(`${bytes.replace(/^\n+/, '')}\n\n`, depth + 1, 'text/plain');
    return {
      headers,
      type,
      params,
      text: decodeBytes(bytes, params.get('charset') ?? null),
      children: [inner],
    };
  }
  const text = isTextual(type) ? decodeBytes(bytes, params.get('charset') ?? null) : '';
  return { headers, type, params, text, children: [] };
}

/** Splits a multipart body at its boundary lines; null when no boundary line occurs. */
function splitMultipart(body: string, boundary: string): string[] | null {
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
