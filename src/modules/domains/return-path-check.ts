import type { DnsResolver } from '../../shared/dns-resolver';
import type { CheckResult } from './check-result';
import { failed, passed, sameHost, unanswered } from './check-result';

export const RETURN_PATH_LABEL = 'bounce';

/** `bounce.<domain>` is a CNAME to BOUNCE_HOST, so bounces come back to us. Reported, not required. */
export async function checkReturnPath(
  resolver: DnsResolver,
  domain: string,
  bounceHost: string,
): Promise<CheckResult> {
  const name = `${RETURN_PATH_LABEL}.${domain}`;
  const publish = `Optional: publish a CNAME record at ${name} (host ${RETURN_PATH_LABEL}) pointing to ${bounceHost}`;
  const lookup = await resolver.cname(name);
  const unanswerable = unanswered(lookup, name, 'CNAME', bounceHost, publish);
  if (unanswerable) return unanswerable;
  const targets = lookup.status === 'found' ? lookup.records : [];
  if (targets.some((t) => sameHost(t, bounceHost))) return passed;
  return failed({
    code: 'INVALID_RECORD',
    message: `${name} is a CNAME to ${targets.join(', ')}, not to ${bounceHost}.`,
    found: targets,
    expected: bounceHost,
    nextStep: `Optional: point the CNAME at ${name} to ${bounceHost}`,
  });
}
