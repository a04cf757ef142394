import type { DestinationStanding } from './destination-pacing';

/**
 * The back-off table outlives the mta process (issue 22 review, item 5): a provider that told us
 * to slow down is not hammered by every queued message the moment the mta restarts (an upgrade,
 * a crash). `$DATA_DIR/mta-backoff.json` holds each destination's level and end of back-off; the
 * mta rewrites it when the table changes (src/mta/destination-state-file.ts: off the event loop,
 * atomically, private) and reads it once at start.
 */
export const BACKOFF_FILE = 'mta-backoff.json';

/** A sane ceiling on what the file may carry: a hand-edited or damaged file cannot grow memory. */
const MAX_ENTRIES = 10_000;

export function backoffFileText(standings: readonly DestinationStanding[]): string {
  return JSON.stringify({
    destinations: standings.map((s) => ({ destination: s.destination, level: s.level, until: s.until })),
  });
}

/**
 * The standings in the file's text. Entries that are not a destination name with a whole level
 * and an epoch-ms end are skipped; so is a file that is not JSON (the previous run's write never
 * leaves half a file, so that is a hand edit): a damaged file only costs the memory of back-offs.
 */
export function parseBackoffFile(text: string): DestinationStanding[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const list = (parsed as { destinations?: unknown } | null)?.destinations;
  if (!Array.isArray(list)) return [];
  const out: DestinationStanding[] = [];
  for (const entry of list.slice(0, MAX_ENTRIES)) {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const { destination, level, until } = e;
    if (typeof destination !== 'string' || destination === '' || destination.length > 255) continue;
    if (typeof level !== 'number' || !Number.isInteger(level) || level < 1 || level > 64) continue;
    if (typeof until !== 'number' || !Number.isFinite(until)) continue;
    out.push({ destination, level, until });
  }
  return out;
}
