import type { DnsResolver } from '../../shared/dns-resolver';
import type { CheckResult } from './check-result';
import { failed, passed, sameHost, unanswered } from './check-result';

export const MX_PRIORITY = 10;

/** The receiving host (`<inboundLabel>.<domain>`, or the apex for `@`). */
export function inboundHost(domain: string, inboundLabel: string): string {
  return inboundLabel === '@' ? domain : `${inboundLabel}.${domain}`;
}

/** With receiving enabled, the inbound host's MX names MX_HOST. Reported, not required for sending. */
export async function checkMx(
  resolver: DnsResolver,
  domain: string,
  inboundLabel: string,
  mxHost: string,
): Promise<CheckResult> {
  const name = inboundHost(domain, inboundLabel);
  const expected = `${MX_PRIORITY} ${mxHost}`;
  const publish = `To receive mail: publish an MX record at ${name} (host ${inboundLabel}) with priority ${MX_PRIORITY} pointing to ${mxHost}`;
  const lookup = await resolver.mx(name);
  const unanswerable = unanswered(lookup, name, 'MX', expected, publish);
  if (unanswerable) return unanswerable;
  const records = lookup.status === 'found' ? lookup.records : [];
  if (records.some((r) => sameHost(r.exchange, mxHost))) return passed;
  return failed({
    code: 'INVALID_RECORD',
    message: `The MX records of ${name} do not point to ${mxHost}.`,
    found: records.map((r) => `${r.priority} ${r.exchange}`),
    expected,
    nextStep: publish,
  });
}
