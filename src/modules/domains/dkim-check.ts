import type { DnsResolver } from '../../shared/dns-resolver';
import type { CheckResult } from './check-result';
import { failed, passed, unanswered } from './check-result';
import { publicKeyDer } from './dkim-key';

export type TagList = ReadonlyMap<string, string>;

/**
 * RFC 6376 §3.2 tag-list: `tag=value` separated by `;`, whitespace around both
 * ignored, a trailing `;` allowed. Tag names are matched case-insensitively here
 * (DNS control panels are not careful); a repeated tag makes the list invalid.
 */
export function parseTagList(txt: string): TagList | undefined {
  const tags = new Map<string, string>();
  for (const part of txt.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return undefined;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (!/^[a-z][a-z0-9_]*$/.test(name) || tags.has(name)) return undefined;
    tags.set(name, part.slice(eq + 1).trim());
  }
  return tags;
}

type KeyVerdict = 'match' | 'mismatch' | { readonly invalid: string };

function judge(txt: string, issued: string, issuedDer: Buffer): KeyVerdict {
  const tags = parseTagList(txt);
  if (!tags) return { invalid: 'it is not a tag=value list' };
  const version = tags.get('v');
  if (version !== undefined && version.toUpperCase() !== 'DKIM1')
    return { invalid: `v=${version} (expected DKIM1)` };
  const p = tags.get('p');
  if (p === undefined) return { invalid: 'it has no p= tag' };
  // p= may be split by whitespace (FWS) anywhere, e.g. where TXT strings were joined.
  const key = p.replace(/\s+/g, '');
  // An empty p= revokes the key (RFC 6376 §3.6.1); another k= is another key.
  if (key === '') return 'mismatch';
  const k = tags.get('k');
  if (k !== undefined && k.toLowerCase() !== 'rsa') return 'mismatch';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key)) return { invalid: 'p= is not base64' };
  if (key.length < issued.length && issued.startsWith(key)) {
    return {
      invalid: `p= is the issued key cut off after ${key.length} of ${issued.length} characters (does the DNS panel limit a value to 255 characters?)`,
    };
  }
  const der = publicKeyDer(key);
  if (!der) return { invalid: 'p= is not a public key' };
  return der.equals(issuedDer) ? 'match' : 'mismatch';
}

/** The TXT record at `<selector>._domainkey.<domain>` carries the key issued for this domain. */
export async function checkDkim(
  resolver: DnsResolver,
  domain: string,
  selector: string,
  publicKey: string,
): Promise<CheckResult> {
  const name = `${selector}._domainkey.${domain}`;
  const expected = `v=DKIM1; k=rsa; p=${publicKey}`;
  const publish = `Publish a TXT record at ${name} (host ${selector}._domainkey) with the value: ${expected}`;
  const lookup = await resolver.txt(name);
  const unanswerable = unanswered(lookup, name, 'TXT', expected, publish);
  if (unanswerable) return unanswerable;
  const records = lookup.status === 'found' ? lookup.records : [];

  const issuedDer = Buffer.from(publicKey, 'base64');
  const verdicts = records.map((r) => judge(r, publicKey, issuedDer));
  if (verdicts.includes('match')) return passed;
  if (verdicts.includes('mismatch')) {
    return failed({
      code: 'KEY_MISMATCH',
      message: `The DKIM record at ${name} does not hold the key issued for ${domain} (another or a revoked key).`,
      found: records,
      expected,
      nextStep: `Replace the TXT record at ${name} with exactly: ${expected}`,
    });
  }
  const problem =
    verdicts.find((v): v is { invalid: string } => typeof v === 'object')?.invalid ?? 'unreadable';
  return failed({
    code: 'INVALID_RECORD',
    message: `The TXT record at ${name} is not a valid DKIM key record: ${problem}.`,
    found: records,
    expected,
    nextStep: `Replace the TXT record at ${name} with exactly: ${expected}`,
  });
}
