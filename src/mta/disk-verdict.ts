import type { Listener } from './listeners';
import type { SmtpVerdict } from './smtp-verdict';
import { defer } from './smtp-verdict';

/**
 * The injection listener carries mail the API already answered 202 for: it may
 * go on down to this fraction of DISK_FREE_FLOOR_MB, so that accepted mail still
 * drains (a delivered queue file is deleted) while the front doors refuse new
 * mail; the rest of the floor stays for the database's outcome rows.
 */
export const HANDOFF_FLOOR_FRACTION = 0.25;

export function floorFraction(listener: Listener): number {
  return listener === 'inject' ? HANDOFF_FLOOR_FRACTION : 1;
}

/**
 * RFC 5321 §4.2.3: 452 "insufficient system storage", valid after MAIL and after
 * DATA; RFC 3463 X.3.1 "mail system full". Transient: the client keeps the
 * message and retries.
 */
export const STORAGE_FULL = defer(452, '4.3.1', 'Insufficient system storage; try again later');

/** The answer while a volume is short of space (`shortage` says why), or no opinion. */
export function diskVerdict(shortage: string | undefined): SmtpVerdict | undefined {
  return shortage === undefined ? undefined : STORAGE_FULL;
}
