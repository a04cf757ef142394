/**
 * What an MTA-STS policy (RFC 8461 §5) does to the MX addresses mailroom-outbound's
 * `get_mx` would hand Haraka. Pure; see mta-sts-discovery.ts for where the policy comes from.
 */
import type { MxTarget } from './mx-guard';
import type { StsPolicy } from './mta-sts-policy';
import { mxMatches } from './mta-sts-policy';

export type StsRoute<T extends MxTarget> =
  /** No policy in force (none, `mode: none`): deliver as before, opportunistic TLS. */
  | { readonly kind: 'open'; readonly targets: T[] }
  /** `enforce`: only the matching MX hosts, each over TLS with a valid certificate for its name. */
  | { readonly kind: 'enforce'; readonly targets: T[] }
  /** `enforce` and no MX host matches: defer (§5.1), the reason for the timeline. */
  | { readonly kind: 'defer'; readonly reason: string }
  /** `testing`: deliver as before; `violations` are the MX hosts the policy would have refused (§5.2: report only). */
  | { readonly kind: 'testing'; readonly targets: T[]; readonly violations: readonly string[] };

function names(targets: readonly MxTarget[]): string[] {
  return [...new Set(targets.map((t) => t.from_dns ?? t.exchange ?? ''))];
}

export function stsRoute<T extends MxTarget>(
  domain: string,
  policy: StsPolicy | undefined,
  targets: T[],
): StsRoute<T> {
  if (policy === undefined || policy.mode === 'none') return { kind: 'open', targets };
  // A target resolved from an MX name carries it in from_dns; Haraka's own IP-only targets have none.
  const matching = targets.filter((t) => t.from_dns !== undefined && mxMatches(t.from_dns, policy.mx));
  if (policy.mode === 'testing') {
    const violations = names(targets.filter((t) => !matching.includes(t)));
    return { kind: 'testing', targets, violations };
  }
  if (matching.length > 0) return { kind: 'enforce', targets: matching };
  return {
    kind: 'defer',
    reason: `MTA-STS policy of ${domain} (enforce, id ${policy.id}) allows only MX ${policy.mx.join(', ')}; none of ${names(targets).join(', ') || '(no MX)'} matches: not delivered, will retry`,
  };
}
