// Content-Transfer-Encoding (RFC 2045 §6) and charset decoding. Bytes travel as latin1 strings
// (one char per byte) until a charset turns them into text.
import { TextDecoder } from 'node:util';
import { trimEndChars } from '../../shared/text';

/** Base64 body to bytes; stray characters (line breaks, MTA "!" wraps) are ignored. */
export function decodeBase64(text: string): string {
  return Buffer.from(text.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
}

/** Quoted-printable body to bytes (RFC 2045 §6.7): soft breaks removed, =XX decoded. */
export function decodeQuotedPrintable(text: string): string {
  // Trailing blanks per line (RFC 2045 §6.7 rule 3), without /[ \t]+$/gm: that retries every
  // offset of a long blank run (issue 17 finding 2).
  return text
    .split('\n')
    .map((line) => trimEndChars(line, ' \t'))
    .join('\n')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export function decodeTransfer(body: string, encoding: string | null): string {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === 'base64') return decodeBase64(body);
  if (enc === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

const CHARSET_ALIASES: Readonly<Record<string, string>> = {
  'ks_c_5601-1987': 'euc-kr',
  'x-sjis': 'shift_jis',
  'shift-jis': 'shift_jis',
  sjis: 'shift_jis',
  'x-euc-jp': 'euc-jp',
  'iso-2022-jp-1': 'iso-2022-jp',
  'iso-2022-jp-2': 'iso-2022-jp',
  cp932: 'shift_jis',
  'windows-31j': 'shift_jis',
  'x-unknown': 'utf-8',
  unknown: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  '7bit': 'utf-8',
  '8bit': 'utf-8',
};

const decoders = new Map<string, TextDecoder | null>();

function decoderFor(charset: string): TextDecoder | null {
  const label = CHARSET_ALIASES[charset] ?? charset;
  let d = decoders.get(label);
  if (d === undefined) {
    try {
      d = new TextDecoder(label);
    } catch {
      d = null;
    }
    decoders.set(label, d);
  }
  return d;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes to text. Without a usable charset, valid UTF-8 is taken as UTF-8, an ISO-2022-JP escape
 * as ISO-2022-JP, and anything else as latin1 so that no byte is lost.
 */
export function decodeBytes(bytes: string, charset: string | null): string {
  if (!bytes.includes('\u001b') && !/[\x80-\xff]/.test(bytes)) return bytes;
  const buf = Buffer.from(bytes, 'latin1');
  const cs = (charset ?? '').trim().toLowerCase().replace(/^"|"$/g, '');
  if (
    cs !== '' &&
    cs !== 'utf-8' &&
    cs !== 'utf8' &&
    !(cs in CHARSET_ALIASES && CHARSET_ALIASES[cs] === 'utf-8')
  ) {
    const d = decoderFor(cs);
    if (d !== null) return d.decode(buf);
  }
  try {
    return strictUtf8.decode(buf);
  } catch {
    if (bytes.includes('\x1b$B') || bytes.includes('\x1b$@'))
      return decoderFor('iso-2022-jp')?.decode(buf) ?? bytes;
    return bytes;
  }
}
