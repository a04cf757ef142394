import assert from 'node:assert/strict';

/** name → the whole Set-Cookie line, from a response. */
export function setCookies(headers: Headers): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of headers.getSetCookie()) out.set(line.slice(0, line.indexOf('=')), line);
  return out;
}

/** The value of a Set-Cookie line (up to its first attribute). */
export function cookieValue(line: string | undefined): string {
  assert.ok(line, 'cookie not set');
  return line.slice(line.indexOf('=') + 1, line.indexOf(';'));
}
