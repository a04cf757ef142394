import type { DnsResolver } from '../../shared/dns-resolver';
import type { CheckResult } from './check-result';
import { failed, passed, unanswered } from './check-result';
import { parseTagList } from './dkim-check';

const POLICIES = new Set(['none', 'quarantine', 'reject']);

export function defaultDmarc(): string {
  return 'v=DMARC1; p=none; adkim=r; aspf=r';
}

/** RFC 7489 §6.4: the record starts with the version tag; leniently matched for case and spacing. */
function isDmarcRecord(txt: string): boolean {
  return /^v\s*=\s*dmarc1\s*(;|$)/i.test(txt.trim());
}

function judgeRecord(name: string, records: readonly string[], expected: string): CheckResult {
  const dmarc = records.filter(isDmarcRecord);
  if (dmarc.length > 1) {
    return failed({
      code: 'INVALID_RECORD',
      message: `${name} publishes ${dmarc.length} DMARC records; receivers then apply none of them (RFC 7489 §6.6.3).`,
      found: dmarc,
      expected,
      nextStep: `Optional: keep a single DMARC record at ${name}, e.g. ${expected}`,
    });
  }
  const policy = parseTagList(dmarc[0] ?? '')
    ?.get('p')
    ?.toLowerCase();
  if (policy === undefined || !POLICIES.has(policy)) {
    return failed({
      code: 'INVALID_RECORD',
      message: `The DMARC record at ${name} has no valid policy (p=none, quarantine or reject).`,
      found: dmarc,
      expected,
      nextStep: `Optional: fix the DMARC record at ${name}, e.g. ${expected}`,
    });
  }
  return passed;
}

/**
 * A DMARC record covers the domain: its own at `_dmarc.<domain>`, or for a
 * subdomain the organizational domain's (RFC 7489 §6.6.3). Reported, not required.
 */
export async function checkDmarc(
  resolver: DnsResolver,
  domain: string,
  organizationalDomain: string,
): Promise<CheckResult> {
  const name = `_dmarc.${domain}`;
  const expected = defaultDmarc();
  const publish = `Optional: publish a TXT record at ${name} (host _dmarc) with the value: ${expected}`;
  const lookup = await resolver.txt(name);
  if (lookup.status === 'failed') return unanswered(lookup, name, 'TXT', expected, publish) ?? passed;
  const own = lookup.status === 'found' ? lookup.records : [];
  if (own.some(isDmarcRecord)) return judgeRecord(name, own, expected);

  if (organizationalDomain !== domain) {
    const orgName = `_dmarc.${organizationalDomain}`;
    const org = await resolver.txt(orgName);
    if (org.status === 'failed') return unanswered(org, orgName, 'TXT', expected, publish) ?? passed;
    const records = org.status === 'found' ? org.records : [];
    if (records.some(isDmarcRecord)) return judgeRecord(orgName, records, expected);
  }
  return failed({
    code: 'MISSING_RECORD',
    message:
      own.length > 0
        ? `${name} has TXT records but none is a DMARC record (v=DMARC1 …).`
        : `No DMARC record at ${name}.`,
    found: own,
    expected,
    nextStep: publish,
  });
}
