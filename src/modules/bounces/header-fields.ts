// RFC 5322 §2.2 header fields: unfolding, lookup, and RFC 2047 encoded-word decoding.
import { decodeBytes } from './transfer-decoding';

export interface HeaderField {
  /** Lower-cased field name. */
  readonly name: string;
  /** Unfolded value; raw bytes as a latin1 string, encoded words left as they are. */
  readonly value: string;
}

// The value is trimmed after the match: `:[ \t]*(.*)$` let the blanks go to either side and
// backtracked quadratically on a line with a stray CR (issue 17 finding 2).
const FIELD_LINE = /^([!-9;-~]+)[ \t]*:(.*)$/s;

/**
 * Parses a header block (lines up to the first empty line). Continuation lines (RFC 5322 §2.2.3)
 * are unfolded; lines that are neither fields nor continuations are skipped, since reports often
 * quote header blocks that were mangled on the way.
 */
export function parseHeaderBlock(block: string): HeaderField[] {
  const fields: { name: string; value: string }[] = [];
  for (const line of block.split('\n')) {
    const last = fields[fields.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      last.value = `${last.value} ${line.trim()}`.trim();
      continue;
    }
    const m = FIELD_LINE.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      fields.push({ name: m[1].toLowerCase(), value: m[2].trim() });
    }
  }
  return fields;
}

/** Splits raw message text at the first empty line (RFC 5322 §2.1). */
export function splitHeaderBody(text: string): { head: string; body: string } {
  // An mbox "From " separator line is not a header field.
  const start = text.startsWith('From ') ? text.indexOf('\n') + 1 : 0;
  const rest = text.slice(start);
  if (rest.startsWith('\n')) return { head: '', body: rest.slice(1) };
  const at = rest.indexOf('\n\n');
  if (at < 0) return { head: rest, body: '' };
  return { head: rest.slice(0, at), body: rest.slice(at + 2) };
}

export function firstField(fields: readonly HeaderField[], name: string): string | null {
  for (const f of fields) if (f.name === name) return f.value;
  return null;
}

export function allFields(fields: readonly HeaderField[], name: string): string[] {
  return fields.filter((f) => f.name === name).map((f) => f.value);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

/** Decodes RFC 2047 encoded words and raw 8-bit bytes (taken as UTF-8 when valid) of a header value. */
export function decodeHeaderValue(value: string): string {
  // RFC 2047 §6.2: whitespace between adjacent encoded words is not displayed.
  const joined = value.replace(/(\?=)\s+(=\?)/g, '$1$2');
  const decoded = joined.replace(ENCODED_WORD, (_all, charset: string, enc: string, text: string) => {
    const bytes =
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('latin1')
        : text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    // RFC 2231 §5: "charset*language".
    const star = charset.indexOf('*');
    return decodeBytes(bytes, star < 0 ? charset : charset.slice(0, star));
  });
  // Any byte above 0x7f that was not inside an encoded word is raw 8-bit text.
  return /[\x80-\xff]/.test(decoded) && !/[\u0100-\uffff]/.test(decoded)
    ? decodeBytes(decoded, null)
    : decoded;
}

export interface ContentType {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
}

/** Parses a Content-Type value (RFC 2045 §5.1), tolerating the usual sloppiness. */
export function parseContentType(value: string | null): ContentType {
  const params = new Map<string, string>();
  if (value === null) return { type: 'text/plain', params };
  // The media type is the leading type/subtype token; a missing ";" before parameters is common.
  const m = /^\s*([\w.+-]+\/[\w.+-]+)/.exec(value);
  const type = (m?.[1] ?? '').toLowerCase();
  const rest = value.slice(m?.[0].length ?? 0).replace(/^\s*;?/, '');
  // The look-behind starts a name only at a token's first character: without it a long run of
  // name characters with no "=" was rescanned from each of its offsets (issue 17 finding 2).
  const PARAM = /(?<![\w.*-])([\w.*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (let m = PARAM.exec(rest); m !== null; m = PARAM.exec(rest)) {
    const key = (m[1] ?? '').toLowerCase();
    const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
    // RFC 2231 §4: charset'language'percent-encoded value.
    const v = key.endsWith('*') ? raw.replace(/^[^']*'[^']*'/, '') : raw;
    const name = key.replace(/\*(\d+\*?)?$/, '');
    params.set(name, (params.get(name) ?? '') + v);
  }
  return { type: type === '' ? 'text/plain' : type, params };
}
