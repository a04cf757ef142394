/** True when the text holds C0 controls (NUL, CR, LF, TAB ...) or DEL: never valid in names, subjects, header values. */
export function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

// Issue 17 finding 2: `s.replace(/x+$/, '')` retries the run from every offset when it is not at
// the end ("   …   a"), quadratic in the run's length. These scans are linear.

/** `s` without the trailing characters that are in `chars`. */
export function trimEndChars(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s.charAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** `s` without the leading characters that are in `chars`. */
export function trimStartChars(s: string, chars: string): string {
  let start = 0;
  while (start < s.length && chars.includes(s.charAt(start))) start++;
  return start === 0 ? s : s.slice(start);
}

/**
 * At most `max` characters of `s`, ending in `...` when cut. For values echoed
 * back to a client (SMTP replies, error messages): a 2 MB From header must not
 * come back as a 2 MB reply (issue 17, finding 10). ASCII marker: SMTP reply
 * text is US-ASCII (RFC 5321 §4.2).
 */
export function clip(s: string, max = 256): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 3))}...`;
}

/**
 * A LIKE pattern, for use with a backslash as the ESCAPE character, matching `text`
 * anywhere: the caller's `%`, `_` and backslash match themselves (issue 19: the
 * dashboard's searches are free text).
 */
export function likeContains(text: string): string {
  return `%${likeEscape(text)}%`;
}

/**
 * `text` with A-Z lowered and nothing else: what SQL's lower() does in SQLite, and in
 * PostgreSQL on our `collate "C"` text columns (issue 23). Compared with `lower(column)`,
 * it gives SQLite's LIKE, which ignores ASCII case only, on both engines; PostgreSQL's
 * LIKE ignores none.
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** `text` with LIKE's wildcards and the escape character each preceded by a backslash. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
