// How MTAs word a failure, as one table (ZoneMTA-style): pattern → reason, each row with an example
// the unit tests classify. Patterns run on lower-cased, whitespace-collapsed diagnostic text. The
// rows live by topic: mta-own (a reporter's own, decisive wordings), address (the recipient and its
// mailbox), sender (our host and address), content (the message) and transport (systems on the
// way). Wordings were collected from MTA sources and real reports (Postfix, Sendmail, Exim, qmail,
// Exchange, Gmail, Yahoo, Domino, Courier ...); the reason vocabulary follows Sisimai's.
import type { BounceReason } from './bounce-result';
import type { StatusPattern } from './pattern-row';
import { ADDRESS_PATTERNS } from './address-patterns';
import { CONTENT_PATTERNS } from './content-patterns';
import { MTA_OWN_PATTERNS } from './mta-own-patterns';
import { PROVIDER_PATTERNS } from './provider-patterns';
import { PUBLIC_PATTERNS } from './public-patterns';
import { PUBLIC_SOFT_PATTERNS } from './public-soft-patterns';
import { SENDER_PATTERNS } from './sender-patterns';
import { TRANSPORT_PATTERNS } from './transport-patterns';

/** Every row; decisive rows first, since the first decisive match settles a reason. */
export const STATUS_PATTERNS: readonly StatusPattern[] = [
  ...MTA_OWN_PATTERNS,
  ...PROVIDER_PATTERNS,
  ...ADDRESS_PATTERNS,
  ...SENDER_PATTERNS,
  ...CONTENT_PATTERNS,
  ...TRANSPORT_PATTERNS,
  ...PUBLIC_PATTERNS,
  ...PUBLIC_SOFT_PATTERNS,
];

const byReason = new Map<BounceReason, StatusPattern[]>();
for (const r of STATUS_PATTERNS) {
  const list = byReason.get(r.reason) ?? [];
  list.push(r);
  byReason.set(r.reason, list);
}

// Rows switched off while a held-out fold is scored (corpus-folds.ts); empty in production.
let disabledRows: ReadonlySet<StatusPattern> = new Set();

/**
 * Runs `fn` (synchronously) with `rows` left out of the table, then restores it. Only the k-fold
 * measurement uses it, to score a fold without the rows learned from that fold alone.
 */
export function withRowsDisabled<T>(rows: ReadonlySet<StatusPattern>, fn: () => T): T {
  const before = disabledRows;
  disabledRows = rows;
  try {
    return fn();
  } finally {
    disabledRows = before;
  }
}

/** Lower-cases and collapses whitespace, the form every pattern is written against. */
export function normaliseDiagnostic(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** True when some row of `reason` matches the normalised text. */
export function textSays(reason: BounceReason, normalised: string): boolean {
  if (normalised === '') return false;
  const list = byReason.get(reason);
  return list !== undefined && list.some((r) => !disabledRows.has(r) && r.pattern.test(normalised));
}

/** The reason of the first decisive row matching the normalised text, or null. */
export function settledReason(normalised: string): BounceReason | null {
  if (normalised === '') return null;
  return (
    STATUS_PATTERNS.find((r) => r.decisive && !disabledRows.has(r) && r.pattern.test(normalised))?.reason ??
    null
  );
}
