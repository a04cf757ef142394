// The returned original message (RFC 3464 §2: the third part of a report, message/rfc822 or
// text/rfc822-headers), or the header block a non-MIME bounce quotes after its explanation.
import type { HeaderField } from './header-fields';
import { allFields, firstField, parseHeaderBlock } from './header-fields';
import { addressKey, headerAddresses } from './email-address';
import type { MimePart } from './mime-message';
import { leafParts } from './mime-message';
import { isOriginalMessageMarker } from './report-text';

export interface OriginalMessage {
  readonly headers: readonly HeaderField[];
  /** Message-ID of the original message, angle brackets included, or null. */
  readonly messageId: string | null;
  /** Its recipients as its headers state them (To, Cc, envelope hints), in order, unique. */
  readonly recipients: readonly string[];
  /** Its sender addresses (From, Sender, Return-Path, Reply-To). */
  readonly senders: readonly string[];
}

function fromHeaders(headers: readonly HeaderField[]): OriginalMessage {
  const messageId =
    /<[^<>\s]+>/.exec(firstField(headers, 'message-id') ?? '')?.[0] ?? firstField(headers, 'message-id');
  const envelope = allFields(headers, 'received')
    .map((r) => /\bfor <?([^\s<>;]+@[^\s<>;]+)>?/i.exec(r)?.[1] ?? null)
    .filter((a): a is string => a !== null);
  const seen = new Set<string>();
  const recipients = [
    ...headerAddresses(firstField(headers, 'x-original-to')),
    ...headerAddresses(firstField(headers, 'to')),
    ...headerAddresses(firstField(headers, 'cc')),
    ...envelope.flatMap((a) => headerAddresses(a)),
  ].filter((a) => !seen.has(addressKey(a)) && seen.add(addressKey(a)) !== undefined);
  const senders = ['from', 'sender', 'return-path', 'reply-to'].flatMap((n) =>
    headerAddresses(firstField(headers, n)),
  );
  return { headers, messageId: messageId === '' ? null : messageId, recipients, senders };
}

/** The embedded original message of a parsed report, or null when the report returns none. */
export function findOriginalMessage(root: MimePart): OriginalMessage | null {
  for (const p of leafParts(root)) {
    const inner = p.children[0];
    if (
      inner !== undefined &&
      (p.type === 'message/rfc822' || p.type === 'message/global' || p.type.endsWith('-headers'))
    ) {
      if (inner.headers.length > 0) return fromHeaders(inner.headers);
    }
  }
  // A non-MIME bounce: the header block that follows the report's own words.
  for (const p of leafParts(root)) {
    if (!p.type.startsWith('text/')) continue;
    const lines = p.text.split('\n').map((l) => l.replace(/^> ?/, ''));
    const at = lines.findIndex((l) => isOriginalMessageMarker(l));
    if (at < 0) continue;
    const block: string[] = [];
    for (const line of lines.slice(at)) {
      if (line.trim() === '' && block.some((b) => /^[\w-]+:/.test(b))) break;
      block.push(line.replace(/^\s+(?=[\w-]+:)/, ''));
    }
    const headers = parseHeaderBlock(block.join('\n'));
    if (headers.some((h) => h.name === 'message-id' || h.name === 'to' || h.name === 'received'))
      return fromHeaders(headers);
  }
  return null;
}
