import crypto from 'node:crypto';
import type * as Mailparser from 'mailparser';
import type { AddressObject, ParsedMail } from 'mailparser';
import {
  MAX_INBOUND_HEADER_BYTES,
  MAX_INBOUND_MIME_PARTS,
  UnparsableMessageError,
  checkMimeShape,
} from './mime-shape';

/** Loaded with the first received message, like mailauth (authenticate-message.ts). */
let mailparser: Promise<typeof Mailparser> | undefined;

/** Spec, Limits: attachments stored per inbound message. */
export const MAX_INBOUND_ATTACHMENTS = 25;

export interface ParsedAttachment {
  readonly filename: string | null;
  readonly contentType: string;
  readonly contentId: string | null;
  readonly disposition: string | null;
  readonly size: number;
  readonly sha256: string;
  readonly content: Buffer;
}

export interface ParsedInbound {
  readonly fromAddress: string | null;
  readonly fromHeader: string | null;
  readonly to: string[];
  readonly cc: string[];
  readonly subject: string | null;
  readonly messageId: string | null;
  readonly date: string | null;
  readonly text: string | null;
  readonly html: string | null;
  readonly headers: { name: string; value: string }[];
  /** The first 25 attachments, in message order. */
  readonly attachments: ParsedAttachment[];
  readonly attachmentsDropped: number;
}

// C0, DEL, C1, and the Unicode format characters that reorder or hide text (bidi overrides, zero-width).
// eslint-disable-next-line no-control-regex
const UNSAFE_FILENAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A filename safe to hand to a client: path separators (`/`, `\`) and control
 * characters removed, so a name cannot climb directories or fake an extension
 * (spec: Inbound mail rules). `..` alone would still name a parent: dropped too.
 */
export function sanitizeFilename(name: string | undefined | null): string | null {
  if (typeof name !== 'string') return null;
  const cleaned = name.replace(/[/\\]/g, '').replace(UNSAFE_FILENAME_CHARS, '').trim().slice(0, 255);
  if (cleaned === '' || /^\.+$/.test(cleaned)) return null;
  return cleaned;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const out: string[] = [];
  const walk = (list: AddressObject['value']): void => {
    for (const a of list) {
      if (a.group) walk(a.group);
      else if (a.address) out.push(a.address);
    }
  };
  for (const o of objects) walk(o.value);
  return out;
}

function headerValue(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0 ? '' : line.slice(colon + 1).replace(/^[ \t]+/, '');
}

function dateOf(parsed: ParsedMail): string | null {
  const d = parsed.date;
  return d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
}

/** PostgreSQL's text cannot hold U+0000: it is stored as U+FFFD on both engines (the raw bytes keep it). */
function storable(text: string): string;
function storable(text: string | null): string | null;
function storable(text: string | null): string | null {
  return text === null || !text.includes('\u0000') ? text : text.replaceAll('\u0000', '\ufffd');
}

/** mailparser's size-limit errors, in the words of the shape scan's bounds. */
function parseFailure(err: unknown): UnparsableMessageError {
  const message = err instanceof Error ? err.message : String(err);
  if (message === 'Max allowed child nodes exceeded') {
    return new UnparsableMessageError(`more than ${MAX_INBOUND_MIME_PARTS} MIME parts`);
  }
  if (message === 'Max header size for a MIME node exceeded') {
    return new UnparsableMessageError(`a header block larger than ${MAX_INBOUND_HEADER_BYTES} bytes`);
  }
  return new UnparsableMessageError(`the MIME parser failed: ${message.slice(0, 200)}`);
}

/**
 * Parses a raw message with mailparser, within the bounds above ({@link checkMimeShape}
 * first); a message past them, or one mailparser fails on, throws
 * {@link UnparsableMessageError} (the same bytes would fail again). The HTML part is kept exactly as
 * received (decoded from its transfer encoding and charset, never sanitised;
 * spec: rule 8): `keepCidLinks` stops mailparser rewriting `cid:` references
 * into data: URLs.
 */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  const { simpleParser } = await (mailparser ??= import('mailparser'));
  await checkMimeShape(raw);
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(raw, {
      keepCidLinks: true,
      skipTextToHtml: true,
      maxChildNodes: MAX_INBOUND_MIME_PARTS,
      maxHeadSize: MAX_INBOUND_HEADER_BYTES,
    });
  } catch (err) {
    throw parseFailure(err);
  }
  const from = addresses(parsed.from);
  const attachments = parsed.attachments.slice(0, MAX_INBOUND_ATTACHMENTS).map((a): ParsedAttachment => ({
    filename: sanitizeFilename(a.filename),
    contentType: storable(a.contentType || 'application/octet-stream'),
    contentId: storable(a.contentId ?? null),
    disposition: storable(a.contentDisposition || null),
    size: a.content.length,
    sha256: crypto.createHash('sha256').update(a.content).digest('hex'),
    content: a.content,
  }));
  return {
    fromAddress: storable(from[0] ?? null),
    fromHeader: storable(parsed.from?.text ?? null),
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: storable(parsed.subject ?? null),
    messageId: storable(parsed.messageId ?? null),
    date: dateOf(parsed),
    text: storable(parsed.text ?? null),
    html: typeof parsed.html === 'string' ? storable(parsed.html) : null,
    headers: parsed.headerLines.map((h) => ({
      name: h.line.slice(0, Math.max(0, h.line.indexOf(':'))),
      value: headerValue(h.line),
    })),
    attachments,
    attachmentsDropped: Math.max(0, parsed.attachments.length - MAX_INBOUND_ATTACHMENTS),
  };
}
