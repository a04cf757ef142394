/**
 * Delivery of queued outbound mail and the record of what became of it:
 * - `get_mx` (route.ts): a message mailroom-dkim could not sign is refused here (never
 *   sent unsigned); otherwise the relay, or the guarded addresses of the domain's MX.
 * - `delivered` / `deferred` / `bounce` (record-outcome.ts): each recipient's delivery
 *   report is committed by the mta's writer thread (applied there in the common case,
 *   else left to an `mta-outcome` job) BEFORE next(), so a crash replays the hook and
 *   its dedupe key absorbs the replay. A duplicate, never a loss.
 * - `deferred` answers next() (CONT): Haraka retries at MTA_RETRY_INTERVALS;
 *   next(OK) there would DELETE the mail. `bounce` answers next(OK): no DSN from
 *   Haraka, the recorded report is the bounce record.
 * Classification is src/mta/delivery-outcome.ts.
 */ import constants from 'haraka-constants';
import { disableNagleOnOutbound } from '../../src/mta/outbound-no-delay';
import type { HmailClass } from '../../src/mta/outbound-tls-session';
import { outboundTlsOf, trackOutboundTls } from '../../src/mta/outbound-tls-session';
import { REFUSED_MX_NOTE, UNSIGNED_NOTE } from '../../src/mta/signing-state';
import { iniInteger, iniValue } from '../ini';
import type { HarakaAddress, HarakaHmail, HarakaNext, HarakaPlugin, HarakaRecipient } from '../types';
import { deliveryFinished, destinationDelivered, pacedDeferral, pacingOf } from './pacing';
import { onHook, report, text } from './record-outcome';
import type { Relay } from './route';
import { routeMessage } from './route';
import { setUpSts, stsDeferral } from './sts';
import { skipRefusingGreetings } from '../../src/mta/greeting-fallback';

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
  if (!trackOutboundTls(this.haraka_require('outbound/hmail') as HmailClass))
    this.logwarn(
      'outbound HMailItem.try_deliver_host_on_socket not found: attempts record no TLS (see src/mta/outbound-tls-session.ts)',
    );
  if (
    !skipRefusingGreetings(
      this.haraka_require('outbound/client_pool') as Parameters<typeof skipRefusingGreetings>[0],
    )
  )
    this.logwarn(
      'outbound client_pool.get_client not found: a 4xx greeting defers instead of trying the next MX (see src/mta/greeting-fallback.ts)',
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
  const sts = setUpSts(this);
  if (state.relay === undefined) {
    // At start, not at the first delivery: the back-offs of the previous run apply from the
    // first message on, and the metrics snapshot is written from now on.
    try {
      pacingOf(this);
    } catch (err) {
      this.logwarn('destination pacing not set up at start: set up at the first delivery', {
        event: 'mta_destination_pacing_deferred',
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  this.loginfo(state.relay ? 'outbound via SMTP_RELAY' : "outbound to each domain's MX", {
    event: 'mta_outbound_route',
    relay: state.relay ? `${state.relay.exchange}:${state.relay.port}` : null,
    retries: state.retryBudget,
    mtaSts: sts && state.relay === undefined,
  });
  this.register_hook('get_mx', 'route');
  this.register_hook('delivered', 'recordDelivered');
  this.register_hook('deferred', 'recordDeferred');
  this.register_hook('bounce', 'recordBounce');
}

export function route(this: HarakaPlugin, next: HarakaNext, hmail: HarakaHmail, domain: string): void {
  routeMessage(this, next, hmail, domain, state.relay);
}

/** delivered(next, hmail, [host, ip, response, delay, port, mode, ok_recips, secured, authenticated]). */
export function recordDelivered(
  this: HarakaPlugin,
  next: HarakaNext,
  hmail: HarakaHmail,
  params: readonly [string, string, string, number, number, string, readonly HarakaAddress[], ...unknown[]],
): void {
  const [host, ip, response, , , , okRecipients] = params;
  destinationDelivered(hmail);
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
      tls: outboundTlsOf(hmail),
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
  params: {
    readonly delay?: unknown;
    readonly err?: unknown;
    readonly fail_recips?: readonly HarakaRecipient[];
  },
): void {
  deliveryFinished(hmail);
  const paced = pacedDeferral(this, hmail, params, text(params.err));
  // DENYSOFT with seconds: Haraka retries then instead of at its own interval (deferred_respond).
  // A hold always answers so: it gave back its num_failures, so Haraka has no interval for it.
  const retry = () =>
    paced.retryInSeconds === undefined ? next() : next(constants.denysoft, String(paced.retryInSeconds));
  if (!paced.record) {
    // Held again within a hold period the timeline already shows.
    retry();
    return;
  }
  onHook(
    this,
    // Haraka's own DSNs are not recorded (onHook answers next() for them): held, they wait too.
    (code?: number, msg?: unknown) => (code === undefined ? retry() : next(code, msg)),
    hmail,
    'deferred',
    (emailId) => ({
      hook: 'deferred',
      emailId,
      recipients: (params.fail_recips ?? hmail.todo?.rcpt_to ?? []).map((r) =>
        // Held back without a connection: RFC 3463 X.4.5, mail system congestion, not
        // Haraka's "bad destination system" of a DENYSOFT from get_mx.
        paced.heldText === undefined ? report(r) : { address: r.address, dsnStatus: '4.4.5' },
      ),
      error: paced.heldText ?? stsDeferral(hmail, text(params.err)),
      numFailures: hmail.num_failures,
      at: new Date().toISOString(),
      tls: outboundTlsOf(hmail),
    }),
    // CONT: retry at the next interval (or when the destination opens), recorded or not
    // (the next attempt records again).
    retry,
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
  deliveryFinished(hmail);
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
      tls: outboundTlsOf(hmail),
    }),
    // OK: recorded, no DSN from Haraka. Not recorded: CONT lets Haraka send its
    // RFC 3464 DSN to the VERP address, which comes back to our own bounce
    // processing, so the bounce is still not lost.
    (written) => next(written ? constants.ok : undefined),
    () => next(constants.ok),
  );
}
