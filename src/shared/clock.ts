/** Timestamps are stored as RFC 3339 UTC strings with milliseconds: they sort as text and read as the API prints them. */
export function isoNow(): string {
  return new Date().toISOString();
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoIn(msFromNow: number): string {
  return new Date(Date.now() + msFromNow).toISOString();
}
