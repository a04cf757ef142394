/** Timestamps are stored as RFC 3339 UTC strings with milliseconds: they sort as text and read as the API prints them. */
export function isoNow(): string {
  return new Date().toISOString();
}
