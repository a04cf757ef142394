// Bounces without an RFC 3464 part: Postfix, Sendmail, Exim, qmail, Exchange, Gmail, Yahoo, Domino,
// Courier and the rest word their reports differently, but all of them name each failed recipient
// and follow (or precede) it with the remote server's reply. This reader finds the recipients and
// the text that belongs to each, without needing to know which MTA wrote it.
import type { DeliveryRecord } from '../../mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import { addressKey, addressPattern, findAddresses } from './email-address';
import { findEnhancedStatus, findReplyCode } from '../../mail/reply-classifier/enhanced-status';
import { findSmtpCommand } from '../../mail/reply-classifier/smtp-command';

export interface TextContext {
  /** Keys (addressKey) of addresses that are not failed recipients: the bounce's own parties. */
  readonly notRecipients: ReadonlySet<string>;
  /** Recipients a header names as failed (X-Failed-Recipients), in order. */
  readonly failedRecipients: readonly string[];
}

/** Lines whose addresses are not failed recipients: senders, message identifiers. */
const SENDER_LINE =
  /^\s*(?:from|sender|reply-to|return-path|message-id|in-reply-to|references|cc|bcc)\s*:|\benvelope-from\b|\bmessage-id\b/i;

/** What directly precedes an address that names the sender, or sits in a link. */
const SENDER_PREFIX =
  /(?:\bmail from:?|\bfrom:?|\bsender:?|\bsent by|\bmailto:|:\/\/\S*|=|\breturn-path:?|\bF=\[?)\s*[<(["']?$/i;

/** An address offered as a mailbox to write to for help, not one that failed. */
const CONTACT_LINE = /\b(?:contact|assistance|questions?)\b.*@/i;
const CONTACT_PREFIX =
  /(?:\bcontact|\bsend (?:a message|mail|an e-?mail) to|\bwrite to|\be-?mail us at)\s*[<(["']?$/i;

/** Lines that end the part of a report describing one recipient. */
const BLOCK_END =
  /^\s*(?:please (?:note|do not|contact|check|verify)|if you (?:have|need|do|wish)|for (?:further|more) (?:assistance|information|details)|you do not need to|do not reply|best regards|thank you|the message (?:is|will be) (?:kept|retried)|learn more at|to learn more)/i;

/** Bounds that keep hostile or broken input cheap: no real report names more, or says more. */
const MAX_RECIPIENTS = 1000;
const MAX_BLOCK = 8000;

interface Mention {
  readonly key: string;
  readonly address: string;
  readonly line: number;
}

function mentionsIn(lines: readonly string[], ctx: TextContext): Mention[] {
  const out: Mention[] = [];
  // An address offered as a contact anywhere is a contact everywhere (it may recur in a translation).
  const contacts = new Set<string>();
  lines.forEach((line, i) => {
    const senderLine = SENDER_LINE.test(line);
    const contactLine = CONTACT_LINE.test(line);
    for (const { address, index } of findAddresses(line)) {
      const key = addressKey(address);
      const before = line.slice(Math.max(0, index - 40), index);
      if (contactLine || CONTACT_PREFIX.test(before)) {
        contacts.add(key);
        continue;
      }
      if (senderLine || SENDER_PREFIX.test(before)) continue;
      if (ctx.notRecipients.has(key) || /^(?:mailer-daemon|mail-daemon)@/i.test(address)) continue;
      out.push({ key, address, line: i });
    }
  });
  return out.filter((m) => !contacts.has(m.key) || ctx.failedRecipients.some((f) => addressKey(f) === m.key));
}

/**
 * A line that names a recipient and then says what went wrong ("554 <a@b>... Remote protocol
 * error", "<a@b>: host x said: 550 ..."): its block is the line and its indented continuation.
 * An address at the end of a sentence ("... delivering your mail to <a@b>.") introduces a block.
 */
function selfContained(line: string): boolean {
  if (line.length > MAX_BLOCK) return true;
  let end = 0;
  for (const m of line.matchAll(addressPattern())) end = m.index + m[0].length;
  const after = line
    .slice(end)
    .replace(/[<>()[\]:;,."'*-]/g, ' ')
    .trim();
  return /\b[245]\d\d\b/.test(after) || after.split(/\s+/).filter((w) => /[a-z]{2,}/i.test(w)).length >= 3;
}

/**
 * Each failed recipient with the report text that belongs to it: from a line naming it up to the
 * next line naming another recipient, a closing remark, or the end of the report.
 */
export function recipientBlocks(text: string, ctx: TextContext): { recipient: string; text: string }[] {
  const lines = text.split('\n');
  let mentions = mentionsIn(lines, ctx);
  const failed = ctx.failedRecipients.map((a) => ({ address: a, key: addressKey(a) }));
  if (failed.length > 0) {
    const wanted = new Set(failed.map((f) => f.key));
    mentions = mentions.filter((m) => wanted.has(m.key));
  }

  // Keys mentioned on each line, and each line's first mention of a key (a key may recur).
  const keysOnLine = new Map<number, Set<string>>();
  const firsts: Mention[] = [];
  for (const m of mentions) {
    const keys = keysOnLine.get(m.line) ?? new Set<string>();
    if (!keys.has(m.key)) firsts.push(m);
    keys.add(m.key);
    keysOnLine.set(m.line, keys);
  }
  const mentionLines = [...keysOnLine.keys()];
  const lineIndex = new Map(mentionLines.map((l, i) => [l, i]));

  const order: { key: string; address: string }[] = [];
  const parts = new Map<string, string[]>();
  for (const m of firsts) {
    if (order.length >= MAX_RECIPIENTS && !parts.has(m.key)) continue;
    if (!parts.has(m.key)) {
      parts.set(m.key, []);
      order.push({ key: m.key, address: m.address });
    }
    // The block ends at the next line naming another recipient (or this one again).
    let next: number | undefined;
    let again: number | undefined;
    for (let j = (lineIndex.get(m.line) ?? mentionLines.length) + 1; j < mentionLines.length; j++) {
      const l = mentionLines[j] ?? 0;
      const keys = keysOnLine.get(l) ?? new Set<string>();
      if (keys.has(m.key)) again ??= l;
      if (keys.size > (keys.has(m.key) ? 1 : 0)) next ??= l;
      if (next !== undefined || again !== undefined) break;
    }
    const stop = Math.min(next ?? lines.length, again ?? lines.length);
    const compact = selfContained(lines[m.line] ?? '');
    const own: string[] = [];
    let size = 0;
    for (let i = m.line; i < stop && size < MAX_BLOCK; i++) {
      const line = lines[i] ?? '';
      if (i > m.line && (BLOCK_END.test(line) || (compact && !/^[ \t]+\S/.test(line)))) break;
      own.push(line);
      size += line.length;
    }
    parts.get(m.key)?.push(...own);
  }

  const blocks = order.map(({ key, address }) => ({
    recipient: address,
    text: (parts.get(key) ?? []).join('\n').slice(0, MAX_BLOCK),
  }));
  // Recipients a header names but the text does not: the whole report is about them.
  for (const f of failed) {
    if (!parts.has(f.key) && blocks.length < MAX_RECIPIENTS) blocks.push({ recipient: f.address, text });
  }
  return blocks;
}

/** Collapses a block of report text into a one-line diagnostic. */
export function oneLine(text: string, max = 1000): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Records read from a report's own words: status, reply code and command found in each block. */
export function parsePlainTextReport(text: string, ctx: TextContext): DeliveryRecord[] {
  const blocks = recipientBlocks(text, ctx);
  return blocks
    .map(({ recipient, text: block }) =>
      // A lone recipient listed after the explanation ("The following recipients were affected:
      // a@b"): the whole report is its explanation.
      recordFromText(recipient, blocks.length === 1 && saysNothing(block) ? text : block),
    )
    .map((rec) => {
      // One recipient whose own lines quote no reply ("The following recipients were affected:
      // a@b" after the error): the reply elsewhere in the report is its reply.
      if (blocks.length !== 1 || rec.smtpCode !== null || rec.status !== null) return rec;
      const whole = recordFromText(rec.recipient, text);
      return whole.smtpCode !== null || whole.status !== null ? whole : rec;
    });
}

/** True when a block is only the address itself and punctuation. */
function saysNothing(block: string): boolean {
  const words = block.replace(addressPattern(), ' ').match(/[\p{L}\d]{2,}/gu) ?? [];
  return words.length < 2;
}

export function recordFromText(recipient: string | null, block: string): DeliveryRecord {
  const rec = emptyRecord(recipient);
  const diag = oneLine(block);
  rec.diagnostic = diag === '' ? null : diag;
  rec.status = findEnhancedStatus(diag);
  rec.smtpCode = findReplyCode(diag);
  rec.command = findSmtpCommand(block);
  return rec;
}
