/**
 * Who we receive mail for on the MX: rcptVerdict() over a cached view of the
 * VERIFIED domains (receiving hosts and return-path hosts), reloaded from the
 * database every 2 s (src/mta/receiving-view.ts), so a domain change reaches
 * the MX within seconds, without a restart. The route of each accepted
 * recipient is kept for mailroom-inbound's queue hook.
 *
 * This plugin answers every RCPT itself (never CONT), so Haraka's "relaying"
 * shortcut in rcpt_respond, which turns CONT into 250 for a relaying
 * connection, never comes into play: the MX cannot relay. Until the view has
 * loaded once (database unavailable), every RCPT is 451: try again later.
 */
import { recordRoute } from '../../src/mta/inbound-routes';
import { mtaDb } from '../../src/mta/mta-runtime';
import { rcptUnavailableVerdict, rcptVerdict } from '../../src/mta/rcpt-verdict';
import { createReceivingViewCache, loadReceivingDomains } from '../../src/mta/receiving-view';
import { answer } from '../smtp-reply';
import type { HarakaAddress, HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

/** Spec, Domains rule 6: "within a few seconds". */
const REFRESH_MS = 2_000;

const state = { plugin: undefined as HarakaPlugin | undefined, lastError: '' };

const view = createReceivingViewCache({
  load: async () => {
    const rows = await loadReceivingDomains(mtaDb());
    state.lastError = '';
    return rows;
  },
  refreshMs: REFRESH_MS,
  // A failed reload keeps the last view; logged once per distinct error, not every 2 s.
  onError: (err) => {
    const error = err instanceof Error ? err.message : String(err);
    if (error === state.lastError) return;
    state.lastError = error;
    state.plugin?.logerror('reloading the receiving domains failed; keeping the last view', {
      event: 'mta_receiving_view_failed',
      error,
    });
  },
});

export function register(this: HarakaPlugin): void {
  state.plugin = this;
  this.register_hook('rcpt', 'decideRecipient');
}

export function shutdown(): void {
  view.stop();
}

export function decideRecipient(
  this: HarakaPlugin,
  next: HarakaNext,
  connection: HarakaConnection,
  params: readonly [HarakaAddress, ...unknown[]],
): void {
  const [address] = params;
  const rcpt = { local: address.user ?? '', host: address.host ?? '' };
  view.current().then(
    (current) => {
      const verdict = rcptVerdict(rcpt, current);
      const transaction = connection.transaction;
      const route = current.host(rcpt.host.toLowerCase().replace(/\.$/, ''))?.route;
      if (verdict.kind === 'accept' && transaction !== null && route !== undefined) {
        recordRoute(transaction, { address: address.address.toLowerCase(), route });
      }
      answer(next, verdict);
    },
    (err: unknown) => {
      connection.logerror(this, 'receiving domains unavailable', {
        event: 'mta_receiving_view_failed',
        error: err instanceof Error ? err.message : String(err),
      });
      answer(next, rcptUnavailableVerdict());
    },
  );
}
