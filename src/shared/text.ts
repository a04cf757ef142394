/** True when the text holds C0 controls (NUL, CR, LF, TAB ...) or DEL: never valid in names, subjects, header values. */
export function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
