// The `get_mx` hook of mailroom-outbound (see index.ts): with SMTP_RELAY (the operator's own
// smarthost, trusted) every message goes to the relay; otherwise the recipient domain's MX is
// looked up with Haraka's own functions (through DNS_SERVERS, mailroom-dns), resolved to
// addresses, and only the addresses the outbound guard allows are handed to Haraka
// (src/mta/mx-guard.ts; issue 17, finding 9): Haraka connects to exactly what was checked,
// without a second lookup that could answer differently.
import { createRequire } from 'node:module';
import constants from 'haraka-constants';
import { mtaMxPath, mtaOutboundGuard } from '../../src/mta/mta-runtime';
import type { MxLookup } from '../../src/mta/mx-guard';
import { routeToMx } from '../../src/mta/mx-guard';
import { REFUSED_MX_NOTE, UNSIGNED_NOTE } from '../../src/mta/signing-state';
import type { HarakaHmail, HarakaNext, HarakaPlugin } from '../types';
import { holdBack } from './pacing';
import { text } from './record-outcome';
import { applySts } from './sts';

/** The relay as get_mx_respond() takes it. */
export interface Relay {
  readonly exchange: string;
  readonly port: number;
  readonly priority: number;
}

/**
 * Where Haraka sends a queued message (`get_mx`). An unsigned message is refused; with a
 * relay every message goes there; otherwise the allowed addresses of the domain's MX.
 */
export function routeMessage(
  plugin: HarakaPlugin,
  next: HarakaNext,
  hmail: HarakaHmail,
  domain: string,
  relay: Relay | undefined,
): void {
  if (hmail.todo?.notes[UNSIGNED_NOTE] === true) {
    // DENY: Haraka bounces it at once, and recordBounce records `failed`.
    next(constants.deny, 'not DKIM-signed: refused to send');
    return;
  }
  if (relay !== undefined) {
    next(constants.ok, { ...relay });
    return;
  }
  lookup ??= harakaRequire('haraka-net-utils') as MxLookup;
  routeToMx(domain, lookup, mtaOutboundGuard(), mtaMxPath()).then(
    (decision) => {
      if (decision.kind !== 'haraka' && decision.refused.length > 0) {
        hmail.logwarn(plugin, `MX addresses refused for ${domain}`, {
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
      } else if (holdBack(plugin, hmail, domain, decision.targets[0]?.from_dns)) {
        // The destination is backed off or at its caps (pacing.ts): no connection; the
        // deferred hook schedules the retry.
        next(constants.denysoft, 'destination paced');
      } else {
        applySts(plugin, hmail, domain, decision.targets).then(
          (sts) => ('defer' in sts ? next(constants.denysoft, sts.defer) : next(constants.ok, sts.targets)),
          (err: unknown) => {
            hmail.logwarn(plugin, 'MTA-STS check failed', {
              event: 'mta_sts_failed',
              domain,
              error: text(err),
            });
            next(constants.ok, decision.targets);
          },
        );
      }
    },
    (err: unknown) => {
      // Haraka's own lookup then runs and classifies the failure (no such domain, DNS error).
      hmail.logwarn(plugin, 'MX lookup failed', { event: 'mta_mx_lookup_failed', domain, error: text(err) });
      next();
    },
  );
}

/** haraka-net-utils from Haraka's own directory: the instance whose resolver has DNS_SERVERS. */
const harakaRequire = createRequire(require.resolve('Haraka/package.json'));
let lookup: MxLookup | undefined;
