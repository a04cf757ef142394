// The human-readable part of a report (RFC 6522 §3: the first part of multipart/report, or the
// whole body of a non-MIME bounce), cut where the returned original message begins.
import type { MimePart } from './mime-message';
import { leafParts, REPORT_LIMITS } from './mime-message';

/** Lines after which a report quotes the original message rather than describing the failure. */
const ORIGINAL_MESSAGE_MARKERS: readonly RegExp[] = [
  /^[-=_*\s]*(?:original message|returned message|undelivered message|original mail as follows)\b/i,
  /^[-=_*\s]*(?:below this line is a copy of the message|this is a copy of the message|a copy of the original message)/i,
  /^[-=_*\s]*(?:the )?(?:header of the original message is following|original message follows|original message headers? follows?)/i,
  /^[-=_*\s]*(?:message headers follow|original message header|included is a copy of the message header)/i,
  /^[-=_*\s]*(?:the )?(?:original|returned) message (?:headers? )?(?:is|are|was|were) (?:attached|included|below|as follows)/i,
  /^\s*below is a copy of the original message/i,
  /^\s*-+\s*(?:message|original) (?:text|headers?)\s*-+\s*$/i,
  /^\s*content-type:\s*(?:message\/rfc822|text\/rfc822-headers)/i,
];

/** A header line that can only belong to a quoted message, never to the report's own text. */
const QUOTED_HEADER =
  /^(?:received|return-path|dkim-signature|x-received|arc-seal|authentication-results|x-google-dkim-signature|domainkey-signature|mime-version):/i;

/** True when the line starts the quoted original message. */
export function isOriginalMessageMarker(line: string): boolean {
  return ORIGINAL_MESSAGE_MARKERS.some((re) => re.test(line)) || QUOTED_HEADER.test(line);
}

/** The text before the quoted original message; email-style "> " quoting is removed first. */
export function cutAtOriginalMessage(text: string): string {
  const lines = unquote(text).split('\n');
  const at = lines.findIndex((l) => isOriginalMessageMarker(l));
  return (at < 0 ? lines : lines.slice(0, at)).join('\n');
}

/** Removes one level of "> " quoting when most lines carry it (a forwarded bounce). */
function unquote(text: string): string {
  const lines = text.split('\n');
  const quoted = lines.filter((l) => l.startsWith('>')).length;
  if (quoted < 5 || quoted < lines.length / 2) return text;
  return lines.map((l) => l.replace(/^> ?/, '')).join('\n');
}

function isAttachment(p: MimePart): boolean {
  const disposition = p.headers.find((h) => h.name === 'content-disposition')?.value ?? '';
  return /^\s*attachment/i.test(disposition) || p.params.has('name');
}

const RAW_TEXT_OPEN = /<(?:style|script)\b/giy;
const RAW_TEXT_CLOSE = /<\/(?:style|script)>/gi;
const LINE_BREAK_TAG = /<br\s*\/?>|<\/(?:p|div|tr|h\d|li)>/iy;

/**
 * Tags out, line-breaking tags as newlines, style and script blocks dropped. A scan with indexOf
 * rather than `/<[^>]+>/g` and a lazy `[\s\S]*?` block pattern: both restarted at every "<" and
 * searched to the end of a text with no ">" or no closing tag, quadratic (issue 17 finding 2).
 * Once a search for ">" or a closing tag fails, no later one can succeed, so it is not repeated.
 */
function stripTags(html: string): string {
  const out: string[] = [];
  let at = 0;
  let closesLeft = true;
  for (let lt = html.indexOf('<'); lt >= 0; lt = html.indexOf('<', at)) {
    out.push(html.slice(at, lt));
    RAW_TEXT_OPEN.lastIndex = lt;
    if (closesLeft && RAW_TEXT_OPEN.test(html)) {
      RAW_TEXT_CLOSE.lastIndex = lt;
      const close = RAW_TEXT_CLOSE.exec(html);
      if (close !== null) {
        out.push(' ');
        at = close.index + close[0].length;
        continue;
      }
      closesLeft = false;
    }
    if (html.charAt(lt + 1) === '>') {
      // "<>" is not a tag.
      out.push('<');
      at = lt + 1;
      continue;
    }
    const gt = html.indexOf('>', lt + 2);
    if (gt < 0) {
      // No tag closes from here on: the rest is text.
      at = lt;
      break;
    }
    LINE_BREAK_TAG.lastIndex = lt;
    out.push(LINE_BREAK_TAG.test(html) && LINE_BREAK_TAG.lastIndex === gt + 1 ? '\n' : ' ');
    at = gt + 1;
  }
  out.push(html.slice(at));
  return out.join('');
}

function htmlToText(html: string): string {
  return stripTags(html)
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&amp;/gi, '&')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/gi, "'")
    .replace(/[ \t]+/g, ' ');
}

/**
 * The report's human-readable text: its text parts up to the first embedded message. HTML is
 * only used when there is no plain text.
 */
export function humanReadableText(root: MimePart): string {
  const texts: string[] = [];
  const htmls: string[] = [];
  for (const p of leafParts(root)) {
    if (p.type === 'message/rfc822' || p.type === 'message/global' || p.type.endsWith('rfc822-headers'))
      break;
    if (p.type === 'message/delivery-status' || p.type === 'message/global-delivery-status') continue;
    if (p.type === 'text/plain' && p.text.trim() !== '' && !(texts.length > 0 && isAttachment(p)))
      texts.push(p.text);
    else if (p.type === 'text/html') htmls.push(htmlToText(p.text));
  }
  const joined = texts.length > 0 ? texts.join('\n') : htmls.join('\n');
  const max = REPORT_LIMITS.maxReportTextChars;
  return cutAtOriginalMessage(joined.length > max ? joined.slice(0, max) : joined);
}
