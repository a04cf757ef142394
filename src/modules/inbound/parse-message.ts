import crypto from 'node:crypto';
import type * as Mailparser from 'mailparser';
import type { AddressObject, ParsedMail } from 'mailparser';

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

/**
 * Parses a raw message with mailparser. The HTML part is kept exactly as
 * received (decoded from its transfer encoding and charset, never sanitised;
 * spec: rule 8): `keepCidLinks` stops mailparser rewriting `cid:` references
 * into data: URLs.
 */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  const { simpleParser } = await (mailparser ??= import('mailparser'));
  const parsed = await simpleParser(raw, { keepCidLinks: true, skipTextToHtml: true });
  const from = addresses(parsed.from);
  const attachments = parsed.attachments.slice(0, MAX_INBOUND_ATTACHMENTS).map((a): ParsedAttachment => ({
    filename: sanitizeFilename(a.filename),
    contentType: a.contentType || 'application/octet-stream',
    contentId: a.contentId ?? null,
    disposition: a.contentDisposition || null,
    size: a.content.length,
    sha256: crypto.createHash('sha256').update(a.content).digest('hex'),
    content: a.content,
  }));
  return {
    fromAddress: from[0] ?? null,
    fromHeader: parsed.from?.text ?? null,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: parsed.subject ?? null,
    messageId: parsed.messageId ?? null,
    date: dateOf(parsed),
    text: parsed.text ?? null,
    html: typeof parsed.html === 'string' ? parsed.html : null,
    headers: parsed.headerLines.map((h) => ({
      name: h.line.slice(0, Math.max(0, h.line.indexOf(':'))),
      value: headerValue(h.line),
    })),
    attachments,
    attachmentsDropped: Math.max(0, parsed.attachments.length - MAX_INBOUND_ATTACHMENTS),
  };
}
