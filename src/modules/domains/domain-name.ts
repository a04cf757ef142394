import net from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain, parse } from 'tldts';
import { SELECTOR_LENGTH } from './dkim-key';

export type DomainNameCheck =
  { readonly ok: true; readonly domain: string } | { readonly ok: false; readonly reason: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// The longest name we ask the customer to publish is `<selector>._domainkey.<domain>`; it must fit in 253.
const MAX_LENGTH = 253 - SELECTOR_LENGTH - '._domainkey.'.length;
// Private suffixes (github.io, herokuapp.com …) count: nobody can send as the suffix itself.
const PSL = { allowPrivateDomains: true } as const;

/**
 * Lower-case ASCII form: trimmed, one root dot dropped, IDNs converted to their
 * xn-- form (UTS #46). Empty when the input is not a host name at all.
 */
export function normalizeDomainName(input: string): string {
  const trimmed = input.trim().replace(/\.$/, '');
  if (trimmed === '' || /[\s/@:[\]]/.test(trimmed)) return '';
  return domainToASCII(trimmed).toLowerCase();
}

/** The registrable domain a name belongs to (RFC 7489 §3.2), or the name itself when there is none. */
export function organizationalDomain(domain: string): string {
  return getDomain(domain, PSL) ?? domain;
}

/**
 * Decides whether a customer may add `input` as a sending domain: a syntactically
 * valid host name, not an IP literal, not one of this appliance's own host names
 * (or a name under them), and registrable under a public suffix: not the suffix
 * itself (`co.uk`), and not under a name no registry delegates (`.test`, `.local`).
 */
export function checkSendingDomain(input: string, ownHosts: readonly string[]): DomainNameCheck {
  const raw = input.trim().replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(raw) !== 0 || parse(raw).isIp === true)
    return { ok: false, reason: 'an IP address is not a domain one can send from' };
  const domain = normalizeDomainName(input);
  if (domain === '') return { ok: false, reason: 'not a valid domain name' };
  if (domain.length > MAX_LENGTH) return { ok: false, reason: `longer than ${MAX_LENGTH} characters` };
  const labels = domain.split('.');
  if (labels.length < 2)
    return { ok: false, reason: 'a sending domain has at least two labels (example.com)' };
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) {
    return {
      ok: false,
      reason: `"${bad}" is not a valid label (letters, digits and inner hyphens, at most 63 characters)`,
    };
  }
  for (const own of ownHosts) {
    const host = own.toLowerCase().replace(/\.$/, '');
    if (domain === host || domain.endsWith(`.${host}`))
      return { ok: false, reason: `${host} is this mail service's own host name` };
  }
  const info = parse(domain, PSL);
  if (info.isIcann !== true && info.isPrivate !== true) {
    return {
      ok: false,
      reason: `.${info.publicSuffix ?? labels.at(-1) ?? ''} is not a public top-level domain`,
    };
  }
  if (info.domain === null) {
    return { ok: false, reason: `${domain} is a public suffix; add a domain registered under it` };
  }
  return { ok: true, domain };
}
