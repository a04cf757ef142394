/**
 * Two size limits share one Haraka process. EMAIL_MAX_SIZE_BYTES is what the API
 * counts (bodies plus DECODED attachments) and what the public MX advertises; the
 * worker hands Haraka the MIME-encoded message, where base64 turns 3 bytes into 4
 * plus a CRLF every 76 characters (≈ 1.37×), and headers and part boundaries add
 * more. Haraka has one global limit (`connection.ini [max] bytes`), so that one is
 * the injection limit, and mailroom-guard holds the MX to EMAIL_MAX_SIZE_BYTES.
 */

/** Above base64's 1.37: room for quoted-printable bodies and MIME structure. */
export const MIME_INFLATION = 1.4;

/** Headers, boundaries and Haraka's own Received header, which it counts against the limit. */
export const INJECT_OVERHEAD_BYTES = 64 * 1024;

/** The injection listener's limit for a message the API accepted at `emailMaxSizeBytes`. */
export function injectMaxBytes(emailMaxSizeBytes: number): number {
  return Math.ceil(emailMaxSizeBytes * MIME_INFLATION) + INJECT_OVERHEAD_BYTES;
}

/** The EHLO keywords with `SIZE` set to `maxBytes` (RFC 1870), everything else unchanged. */
export function withSize(capabilities: readonly string[], maxBytes: number): string[] {
  return capabilities.map((line) => (/^SIZE(\s|$)/i.test(line) ? `SIZE ${maxBytes}` : line));
}

/** The `SIZE=` a client declared on MAIL FROM (RFC 1870 §6), when it declared a usable one. */
export function declaredSize(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
