/**
 * Delivery of queued outbound mail and the record of what became of it:
 * - `get_mx`: a message mailroom-dkim could not sign is refused here (never sent
 *   unsigned); with SMTP_RELAY (the operator's own smarthost, trusted) every message
 *   goes to the relay; otherwise the recipient domain's MX is looked up here with
 *   Haraka's own functions (through DNS_SERVERS, mailroom-dns), resolved to
 *   addresses, and only the addresses the outbound guard allows are handed to
 *   Haraka (src/mta/mx-guard.ts; issue 17, finding 9): Haraka connects to exactly
 *   what was checked, without a second lookup that could answer differently.
 * - `delivered` / `deferred` / `bounce`: one `mta-outcome` job per recipient,
 *   committed (SQLite, synchronous=FULL, by a writer thread so Haraka's event loop
 *   never waits on an fsync; hooks firing together share a commit) BEFORE next():
 *   Haraka removes or renames
 *   the queue file after next(), so a crash in between replays the hook and the
 *   job's dedupe key absorbs the replay. A duplicate, never a loss.
 * - `deferred` answers next() (CONT): Haraka retries at MTA_RETRY_INTERVALS;
 *   next(OK) there would DELETE the mail. `bounce` answers next(OK): no DSN from
 *   Haraka, the outcome job is the bounce record.
 * Classification is src/mta/delivery-outcome.ts.
 */
import { createRequire } from 'node:module';
import constants from 'haraka-constants';
import { emailIdFromVerp } from '../../src/modules/delivery/mta-outcome';
import type { MtaOutcomePayload } from '../../src/modules/delivery/mta-outcome';
import type { DeliveryEvent, RecipientReport } from '../../src/mta/delivery-outcome';
import { deliveryOutcomes } from '../../src/mta/delivery-outcome';
import { mtaDeliveryReports, mtaOutboundGuard } from '../../src/mta/mta-runtime';
import type { MxLookup } from '../../src/mta/mx-guard';
import { routeToMx } from '../../src/mta/mx-guard';
import { disableNagleOnOutbound } from '../../src/mta/outbound-no-delay';
import { REFUSED_MX_NOTE, UNSIGNED_NOTE } from '../../src/mta/signing-state';
import { iniInteger, iniValue } from '../ini';
import type { HarakaAddress, HarakaHmail, HarakaNext, HarakaPlugin, HarakaRecipient } from '../types';

interface Relay {
  readonly exchange: string;
  readonly port: number;
  readonly priority: number;
}

const state = {
  relay: undefined as Relay | undefined,
  retryBudget: 0,
};

export function register(this: HarakaPlugin): void {
  if (
    !disableNagleOnOutbound(
      this.haraka_require('outbound/client_pool') as Parameters<typeof disableNagleOnOutbound>[0],
    )
  )
    this.logwarn(
      'outbound client_pool.get_client not found: relays keep Nagle delays (see src/mta/outbound-no-delay.ts)',
    );
  const ini = this.config.get('mailroom.ini');
  const host = iniValue(ini, 'outbound', 'relay_host');
  if (typeof host === 'string' && host !== '') {
    // The shape get_mx_respond() turns into a HarakaMx (haraka-net-utils): no
    // from_dns, so Haraka's "MX is a local address" check does not apply to it.
    state.relay = {
      exchange: host,
      port: iniInteger(ini, 'mailroom.ini', 'outbound', 'relay_port'),
      priority: 0,
    };
  }
  // outbound/config.js has parsed temp_fail_intervals: its length is the number
  // of retries before temp_fail() turns a deferral into a bounce.
  const cfg = (this.haraka_require('outbound/config') as { cfg?: { temp_fail_intervals?: unknown } }).cfg;
  const intervals = cfg?.temp_fail_intervals;
  if (!Array.isArray(intervals)) throw new Error("Haraka's outbound config has no temp_fail_intervals");
  state.retryBudget = intervals.length;
  this.loginfo(state.relay ? 'outbound via SMTP_RELAY' : "outbound to each domain's MX", {
    event: 'mta_outbound_route',
    relay: state.relay ? `${state.relay.exchange}:${state.relay.port}` : null,
    retries: state.retryBudget,
  });
  this.register_hook('get_mx', 'route');
  this.register_hook('delivered', 'recordDelivered');
  this.register_hook('deferred', 'recordDeferred');
  this.register_hook('bounce', 'recordBounce');
}

export function route(this: HarakaPlugin, next: HarakaNext, hmail: HarakaHmail, domain: string): void {
  if (hmail.todo?.notes[UNSIGNED_NOTE] === true) {
    // DENY: Haraka bounces it at once, and recordBounce records `failed`.
    next(constants.deny, 'not DKIM-signed: refused to send');
    return;
  }
  if (state.relay !== undefined) {
    next(constants.ok, { ...state.relay });
    return;
  }
  lookup ??= harakaRequire('haraka-net-utils') as MxLookup;
  routeToMx(domain, lookup, mtaOutboundGuard()).then(
    (decision) => {
      if (decision.kind !== 'haraka' && decision.refused.length > 0) {
        hmail.logwarn(this, `MX addresses refused for ${domain}`, {
          event: 'mta_mx_refused',
          domain,
          refused: decision.refused,
          remaining: decision.kind === 'deliver' ? decision.targets.length : 0,
        });
      }
      if (decision.kind === 'haraka') {
        next();
      } else if (decision.kind === 'refuse') {
        // recordBounce reads it: the recipients fail with this reason, not Haraka's "No MX".
        if (hmail.todo) hmail.todo.notes[REFUSED_MX_NOTE] = decision.response;
        next(constants.deny, decision.response);
      } else {
        next(constants.ok, decision.targets);
      }
    },
    (err: unknown) => {
      // Haraka's own lookup then runs and classifies the failure (no such domain, DNS error).
      hmail.logwarn(this, 'MX lookup failed', { event: 'mta_mx_lookup_failed', domain, error: text(err) });
      next();
    },
  );
}

/** haraka-net-utils from Haraka's own directory: the instance whose resolver has DNS_SERVERS. */
const harakaRequire = createRequire(require.resolve('Haraka/package.json'));
let lookup: MxLookup | undefined;

function report(r: HarakaRecipient): RecipientReport {
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

function text(value: unknown): string {
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
function onHook(
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

/** delivered(next, hmail, [host, ip, response, delay, port, mode, ok_recips, secured, authenticated]). */
export function recordDelivered(
  this: HarakaPlugin,
  next: HarakaNext,
  hmail: HarakaHmail,
  params: readonly [string, string, string, number, number, string, readonly HarakaAddress[], ...unknown[]],
): void {
  const [host, ip, response, , , , okRecipients] = params;
  onHook(
    this,
    next,
    hmail,
    'delivered',
    (emailId) => ({
      hook: 'delivered',
      emailId,
      recipients: okRecipients.map((r) => r.address),
      response: text(response),
      host: host || ip || null,
      numFailures: hmail.num_failures,
      at: new Date().toISOString(),
    }),
    // Haraka removes the queue file whatever we answer: the message is delivered.
    () => next(),
    () => next(),
  );
}

/** deferred(next, hmail, {delay, err, fail_recips?, mx?}). */
export function recordDeferred(
  this: HarakaPlugin,
  next: HarakaNext,
  hmail: HarakaHmail,
  params: { readonly err?: unknown; readonly fail_recips?: readonly HarakaRecipient[] },
): void {
  onHook(
    this,
    next,
    hmail,
    'deferred',
    (emailId) => ({
      hook: 'deferred',
      emailId,
      recipients: (params.fail_recips ?? hmail.todo?.rcpt_to ?? []).map(report),
      error: text(params.err),
      numFailures: hmail.num_failures,
      at: new Date().toISOString(),
    }),
    // CONT: retry at the next interval, recorded or not (the next attempt records again).
    () => next(),
    // OK here deletes the queue file.
    () => next(constants.ok),
  );
}

function refusedMxOf(hmail: HarakaHmail): string | undefined {
  const note: unknown = hmail.todo?.notes[REFUSED_MX_NOTE];
  return typeof note === 'string' ? note : undefined;
}

/** bounce(next, hmail, err) with err.bounced_rcpt when Haraka split the failed recipients off. */
export function recordBounce(
  this: HarakaPlugin,
  next: HarakaNext,
  hmail: HarakaHmail,
  err: (Error & { readonly bounced_rcpt?: readonly HarakaRecipient[] }) | undefined,
): void {
  onHook(
    this,
    next,
    hmail,
    'bounce',
    (emailId) => ({
      hook: 'bounce',
      emailId,
      recipients: (err?.bounced_rcpt ?? hmail.todo?.rcpt_to ?? []).map(report),
      error: text(err),
      numFailures: hmail.num_failures,
      retryBudget: state.retryBudget,
      unsigned: hmail.todo?.notes[UNSIGNED_NOTE] === true,
      refusedMx: refusedMxOf(hmail),
      at: new Date().toISOString(),
    }),
    // OK: recorded, no DSN from Haraka. Not recorded: CONT lets Haraka send its
    // RFC 3464 DSN to the VERP address, which comes back to our own bounce
    // processing, so the bounce is still not lost.
    (written) => next(written ? constants.ok : undefined),
    () => next(constants.ok),
  );
}
