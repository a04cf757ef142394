import type { AttachmentMeta, InboundRow } from './inbound.repository';

function jsonArray(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** An element of `GET /v1/inbound`: everything but bodies and headers. */
export interface InboundSummary {
  readonly id: string;
  readonly domainId: string | null;
  readonly from: string | null;
  readonly fromAddress: string | null;
  readonly to: string[];
  readonly cc: string[];
  readonly subject: string | null;
  readonly read: boolean;
  readonly spfResult: string | null;
  readonly dkimResult: string | null;
  readonly dmarcResult: string | null;
  readonly authenticated: boolean;
  readonly attachmentCount: number;
  readonly size: number;
  readonly receivedAt: string;
  /**
   * True when the message could not be parsed: only its envelope, size and raw bytes
   * are known (docs/inbound.md, "Messages that cannot be parsed").
   */
  readonly unparsed: boolean;
  /** Why it could not be parsed; null when it was. */
  readonly unparsedReason: string | null;
}

export interface AttachmentView {
  readonly id: string;
  readonly filename: string | null;
  readonly contentType: string;
  readonly size: number;
  readonly contentId: string | null;
  readonly disposition: string | null;
}

/** `GET /v1/inbound/{id}`: the full message (spec: Inbound message). */
export interface InboundView extends InboundSummary {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  readonly remoteIp: string | null;
  readonly helo: string | null;
  readonly messageId: string | null;
  readonly date: string | null;
  readonly text: string | null;
  /** Exactly as received, unsanitised (spec: rule 8). Render it sandboxed. */
  readonly html: string | null;
  readonly headers: { name: string; value: string }[];
  readonly attachments: AttachmentView[];
  /** Attachments beyond the 25 stored (spec: Limits). */
  readonly attachmentsDropped: number;
}

export function inboundSummary(row: InboundRow): InboundSummary {
  return {
    id: row.id,
    domainId: row.domain_id,
    from: row.from_header,
    fromAddress: row.from_address,
    to: jsonArray(row.to_addresses),
    cc: jsonArray(row.cc_addresses),
    subject: row.subject,
    read: row.read === 1,
    spfResult: row.spf_result,
    dkimResult: row.dkim_result,
    dmarcResult: row.dmarc_result,
    authenticated: row.authenticated === 1,
    attachmentCount: row.attachment_count,
    size: row.size,
    receivedAt: row.received_at,
    unparsed: row.unparsed_reason !== null,
    unparsedReason: row.unparsed_reason,
  };
}

function headersOf(text: string): { name: string; value: string }[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as { name: string; value: string }[]) : [];
  } catch {
    return [];
  }
}

export function inboundView(row: InboundRow, attachments: readonly AttachmentMeta[]): InboundView {
  return {
    ...inboundSummary(row),
    mailFrom: row.mail_from,
    rcptTo: jsonArray(row.rcpt_to),
    remoteIp: row.remote_ip,
    helo: row.helo,
    messageId: row.message_id,
    date: row.date,
    text: row.text,
    html: row.html,
    headers: headersOf(row.headers),
    attachments: attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      contentType: a.content_type,
      size: a.size,
      contentId: a.content_id,
      disposition: a.disposition,
    })),
    attachmentsDropped: row.attachments_dropped,
  };
}

/**
 * Types served as they are: inert in a browser. Everything else (text/html,
 * SVG, XML, JavaScript, anything unknown) is served as application/octet-stream,
 * so an attachment can never run as a page of ours (with nosniff and
 * `Content-Disposition: attachment` on top).
 */
const SAFE_TYPES = new Set([
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
  'text/csv',
  'text/calendar',
  'audio/mpeg',
  'video/mp4',
]);

export function safeContentType(declared: string): string {
  const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
  if (!SAFE_TYPES.has(type)) return 'application/octet-stream';
  // text/* gets an explicit charset so no browser guesses one (UTF-7 and friends).
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name (RFC 8187). */
export function contentDisposition(filename: string | null, fallback: string): string {
  const name = filename ?? fallback;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
