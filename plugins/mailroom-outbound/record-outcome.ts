// Recording what became of a queued message (mailroom-outbound's `delivered`, `deferred` and
// `bounce` hooks, see index.ts): the recipients' delivery reports go to the mta's writer thread
// (src/mta/delivery-reports.ts, unit `mta.delivery-reports`) and are committed BEFORE next():
// Haraka removes or renames the queue file after next(), so a crash in between replays the hook
// and the reports' dedupe keys absorb the replay. A duplicate, never a loss.
import { emailIdFromVerp } from '../../src/modules/delivery/mta-outcome';
import type { MtaOutcomePayload } from '../../src/modules/delivery/mta-outcome';
import type { DeliveryEvent, RecipientReport } from '../../src/mta/delivery-outcome';
import { deliveryOutcomes } from '../../src/mta/delivery-outcome';
import { mtaDeliveryReports } from '../../src/mta/mta-runtime';
import type { HarakaHmail, HarakaNext, HarakaPlugin, HarakaRecipient } from '../types';

export function report(r: HarakaRecipient): RecipientReport {
  return {
    address: r.address,
    smtpCode: r.dsn_smtp_code,
    smtpExtc: r.dsn_smtp_extc,
    smtpResponse: r.dsn_smtp_response,
    dsnStatus: r.dsn_status,
    dsnMsg: r.dsn_msg,
    remoteMta: r.dsn_remote_mta,
  };
}

export function text(value: unknown): string {
  if (value instanceof Error) return value.message;
  return typeof value === 'string' ? value : '';
}

type Ours =
  | { readonly kind: 'ours'; readonly emailId: string }
  /** Haraka's own DSN (null sender): left to Haraka's usual course. */
  | { readonly kind: 'dsn' }
  | { readonly kind: 'unmatched'; readonly sender: string };

function whose(hmail: HarakaHmail): Ours {
  const sender = hmail.todo?.mail_from.address ?? '';
  if (sender === '') return { kind: 'dsn' };
  const emailId = emailIdFromVerp(sender);
  return emailId === undefined ? { kind: 'unmatched', sender } : { kind: 'ours', emailId };
}

/**
 * Writes the outcome jobs, then calls `after` whatever happened. A failed write is
 * logged with the payloads (no message content in them) so the outcome can be
 * replayed by hand; see each hook for what it then tells Haraka.
 */
function record(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  payloads: readonly MtaOutcomePayload[],
  after: (written: boolean) => void,
): void {
  // Inside the chain: opening the database can throw too, and must end up below.
  Promise.resolve()
    .then(() => mtaDeliveryReports()(payloads))
    .then(
      (created) => {
        for (const p of payloads) {
          hmail.loginfo(plugin, `outcome ${p.outcome} for ${p.recipient}`, {
            event: `mta_outcome_${p.outcome}`,
            emailId: p.emailId,
            recipient: p.recipient,
            smtpCode: p.smtpCode,
            enhancedStatus: p.enhancedStatus,
            response: p.response,
            attempt: p.attempt,
            replayed: created < payloads.length,
          });
        }
        after(true);
      },
      (err: unknown) => {
        after(false);
        // A delivery's report exists nowhere else once the hook returns (Haraka removes
        // the queue file): keep trying it in the background, off the hook's 30 s timeout.
        // The records are idempotent, so an attempt that did commit is found applied.
        const delivered = payloads.filter((p) => p.outcome === 'delivered');
        if (delivered.length === 0) return failed(plugin, hmail, payloads, err);
        void retryInBackground(plugin, hmail, delivered, err);
      },
    );
}

function failed(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  payloads: readonly MtaOutcomePayload[],
  err: unknown,
): void {
  hmail.logerror(plugin, 'could not record the delivery outcome', {
    event: 'mta_outcome_write_failed',
    error: err instanceof Error ? err.message : String(err),
    payloads,
  });
}

/** Pauses before the background attempts at a delivered report that could not be written (~1 min in all). */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

async function retryInBackground(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  payloads: readonly MtaOutcomePayload[],
  firstError: unknown,
): Promise<void> {
  let last = firstError;
  for (const [attempt, delay] of RETRY_DELAYS_MS.entries()) {
    hmail.logwarn(plugin, `could not record the delivery outcome, trying again in ${delay} ms`, {
      event: 'mta_outcome_write_retry',
      attempt: attempt + 1,
      error: last instanceof Error ? last.message : String(last),
    });
    await new Promise((resolve) => setTimeout(resolve, delay).unref());
    try {
      await mtaDeliveryReports()(payloads);
      return;
    } catch (err) {
      last = err;
    }
  }
  failed(plugin, hmail, payloads, last);
}

/**
 * Runs the recording for one hook. `dropUnmatched` is what an unmatched message
 * (non-VERP sender; the injection listener refuses those, so it should never be
 * queued) gets: removed from the queue rather than delivered or retried.
 */
export function onHook(
  plugin: HarakaPlugin,
  next: HarakaNext,
  hmail: HarakaHmail,
  hook: string,
  build: (emailId: string) => DeliveryEvent,
  onWritten: (written: boolean) => void,
  dropUnmatched: () => void,
): void {
  const owner = whose(hmail);
  if (owner.kind === 'dsn') {
    next();
    return;
  }
  if (owner.kind === 'unmatched') {
    hmail.logwarn(plugin, `${hook} of a message without a VERP sender: dropped`, {
      event: 'mta_outcome_unmatched',
      hook,
      sender: owner.sender,
    });
    dropUnmatched();
    return;
  }
  let payloads: MtaOutcomePayload[];
  try {
    payloads = deliveryOutcomes(build(owner.emailId));
  } catch (err) {
    hmail.logerror(plugin, 'could not classify the delivery outcome', {
      event: 'mta_outcome_write_failed',
      hook,
      error: err instanceof Error ? err.message : String(err),
    });
    onWritten(false);
    return;
  }
  record(plugin, hmail, payloads, onWritten);
}
