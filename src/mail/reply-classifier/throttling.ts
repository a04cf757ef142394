// The one table of "slow down" wordings (issue 22 review, item 2): the bounce classifier reads a
// temporary reply with them as about our traffic, not the address (classify-reason.ts), and the
// mta's per-destination pacing backs the whole destination off on them
// (src/mta/destination-pacing.ts). Both ask here, so a wording added for one counts for the other.
import { normaliseDiagnostic, textSays } from './status-patterns';

/** The classifier's reasons that mean the remote asks us to send slower or connect less. */
export const THROTTLING_REASONS = ['speeding', 'toomanyconn'] as const;

// Generic wordings beside the reason rows (ZoneMTA's slowdown/rate rules; Microsoft's "Server
// busy. Please try again later", Gmail's 4.7.28 "unusual rate"). One alternation of literals:
// linear on the remote's text.
const SLOW_DOWN_WORDING = /\btry (?:again )?later\b|\brate limit|\bthrottl|\bslow down\b|\bunusual rate\b/;

/**
 * Whether a reply's text asks us to slow down: a row of the speeding or toomanyconn reasons, or
 * one of the generic wordings. Greylisting is not among them: it is about one sender/recipient
 * pair, and retrying that one message is what it asks for.
 */
export function saysSlowDown(text: string): boolean {
  const normalised = normaliseDiagnostic(text);
  return (
    THROTTLING_REASONS.some((reason) => textSays(reason, normalised)) || SLOW_DOWN_WORDING.test(normalised)
  );
}
