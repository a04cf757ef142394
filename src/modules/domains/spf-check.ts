import type { DnsResolver } from '../../shared/dns-resolver';
import type { CheckResult } from './check-result';
import { failed, passed, unanswered } from './check-result';
import {
  defaultSpf,
  delegations,
  includesHost,
  isSpfRecord,
  looksLikeSpf,
  mergedSpf,
  parseSpf,
} from './spf-record';

// RFC 7208 §4.6.4: at most 10 DNS-querying terms per evaluation; our search follows no more.
const MAX_DELEGATIONS = 10;

type Search = { readonly found: true } | { readonly found: false; readonly failedAt?: string };

/**
 * Looks for our include in the SPF records the domain's record delegates to
 * (a customer's own `include:_spf.example.com` that itself includes us is fine).
 * Breadth-first, bounded like a receiver's evaluation.
 */
async function searchDelegations(
  resolver: DnsResolver,
  start: readonly string[],
  includeHost: string,
): Promise<Search> {
  const queue = [...start];
  const seen = new Set<string>();
  let lookups = 0;
  while (queue.length > 0 && lookups < MAX_DELEGATIONS) {
    const name = (queue.shift() ?? '').toLowerCase().replace(/\.$/, '');
    // Macro-expanded names depend on the message being checked; they cannot be followed here.
    if (seen.has(name) || name.includes('%')) continue;
    seen.add(name);
    lookups++;
    const lookup = await resolver.txt(name);
    if (lookup.status === 'failed') return { found: false, failedAt: name };
    if (lookup.status !== 'found') continue;
    const records = lookup.records.filter(isSpfRecord);
    if (records.length !== 1 || records[0] === undefined) continue;
    const parsed = parseSpf(records[0]);
    if (!parsed.ok) continue;
    if (includesHost(parsed.terms, includeHost)) return { found: true };
    queue.push(...delegations(parsed.terms));
  }
  return { found: false };
}

/** SPF at the domain's apex authorises SPF_INCLUDE_HOST (spec: spf record, `include:` with soft-fail). */
export async function checkSpf(
  resolver: DnsResolver,
  domain: string,
  includeHost: string,
): Promise<CheckResult> {
  const expected = defaultSpf(includeHost);
  const publish = `Publish a TXT record at ${domain} (host @) with the value: ${expected}`;
  const lookup = await resolver.txt(domain);
  const unanswerable = unanswered(lookup, domain, 'TXT', expected, publish);
  if (unanswerable) return unanswerable;
  const all = lookup.status === 'found' ? lookup.records : [];
  const spf = all.filter(looksLikeSpf);

  if (spf.length === 0) {
    return failed({
      code: 'MISSING_RECORD',
      message: `${domain} has TXT records but none is an SPF record (v=spf1 …).`,
      found: all,
      expected,
      nextStep: publish,
    });
  }
  if (spf.length > 1) {
    const merged = mergedSpf(spf, includeHost);
    return failed({
      code: 'MULTIPLE_SPF_RECORDS',
      message: `${domain} publishes ${spf.length} SPF records; receivers treat that as an error (RFC 7208 §4.5), so none of them counts.`,
      found: spf,
      expected: merged,
      nextStep: `Replace the ${spf.length} SPF records at ${domain} with a single TXT record: ${merged}`,
    });
  }

  const record = spf[0] ?? '';
  const parsed = isSpfRecord(record)
    ? parseSpf(record)
    : ({ ok: false, problem: 'the version must be followed by a space' } as const);
  if (!parsed.ok) {
    return failed({
      code: 'INVALID_RECORD',
      message: `The SPF record at ${domain} is malformed: ${parsed.problem}.`,
      found: spf,
      expected: mergedSpf(spf, includeHost),
      nextStep: `Fix the SPF record at ${domain}; for example: ${mergedSpf(spf, includeHost)}`,
    });
  }
  if (includesHost(parsed.terms, includeHost)) return passed;

  const nested = await searchDelegations(resolver, delegations(parsed.terms), includeHost);
  if (nested.found) return passed;
  if (nested.failedAt !== undefined) {
    return failed({
      code: 'LOOKUP_FAILED',
      message: `Our include is not in ${domain}'s SPF record itself, and the lookup of ${nested.failedAt}, which it includes, failed. This is usually temporary.`,
      found: spf,
      expected: mergedSpf(spf, includeHost),
      nextStep: `Retry verification in a few minutes; if it keeps failing, check the DNS of ${nested.failedAt}.`,
    });
  }
  const merged = mergedSpf(spf, includeHost);
  return failed({
    code: 'INCLUDE_MISSING',
    message: `The SPF record at ${domain} does not authorise this service (include:${includeHost} is missing).`,
    found: spf,
    expected: merged,
    nextStep: `Add include:${includeHost} to the SPF record at ${domain}: ${merged}`,
  });
}
