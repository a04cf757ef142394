import net from 'node:net';
import { sameHost } from './check-result';

/** RFC 7208 §4.5: an SPF record starts with `v=spf1` followed by a space or the end (case-insensitive). */
export function isSpfRecord(txt: string): boolean {
  return /^v=spf1(\s|$)/i.test(txt.trim());
}

/** Looks like an attempt at SPF (`v=spf1…`) even if the version token is mangled (`v=spf1include:…`). */
export function looksLikeSpf(txt: string): boolean {
  return /^v=spf1/i.test(txt.trim());
}

export type SpfQualifier = '+' | '-' | '~' | '?';

export type SpfTerm =
  | {
      readonly kind: 'mechanism';
      readonly qualifier: SpfQualifier;
      readonly name: string;
      readonly value: string | undefined;
      readonly raw: string;
    }
  | { readonly kind: 'modifier'; readonly name: string; readonly value: string; readonly raw: string };

export type SpfParse =
  | { readonly ok: true; readonly terms: readonly SpfTerm[] }
  | { readonly ok: false; readonly problem: string };

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
// A domain-spec may hold macros (RFC 7208 §7); any visible characters are accepted here.
const DOMAIN_SPEC = /^[\x21-\x7e]+$/;
const CIDR4 = /^\/(\d{1,2})$/;
const CIDR6 = /^\/(\d{1,3})$/;
const DUAL_CIDR = /^(?:\/(\d{1,2}))?(?:\/\/(\d{1,3}))?$/;

function checkIp(value: string, family: 4 | 6): boolean {
  const slash = value.indexOf('/');
  const addr = slash < 0 ? value : value.slice(0, slash);
  const cidr = slash < 0 ? '' : value.slice(slash);
  const max = family === 4 ? 32 : 128;
  const m = cidr === '' ? null : (family === 4 ? CIDR4 : CIDR6).exec(cidr);
  if (cidr !== '' && (!m || Number(m[1]) > max)) return false;
  return family === 4 ? net.isIPv4(addr) : net.isIPv6(addr);
}

/** Splits a domain-spec from an a/mx dual-cidr-length (`a:host/24//64`, `mx/24`). */
function checkDomainWithCidr(value: string | undefined, cidrPart: string): boolean {
  if (value !== undefined && !DOMAIN_SPEC.test(value)) return false;
  const m = DUAL_CIDR.exec(cidrPart);
  if (!m) return false;
  return Number(m[1] ?? 0) <= 32 && Number(m[2] ?? 0) <= 128;
}

function parseMechanism(term: string): SpfTerm | string {
  const qualifier: SpfQualifier = '+-~?'.includes(term.charAt(0)) ? (term.charAt(0) as SpfQualifier) : '+';
  const body = /^[+\-~?]/.test(term) ? term.slice(1) : term;
  const m = /^[a-z0-9]+/i.exec(body);
  const name = m?.[0].toLowerCase() ?? '';
  const rest = m === null ? '' : body.slice(m[0].length);
  if (!MECHANISMS.has(name)) return `unknown mechanism "${term}"`;
  const value = rest.startsWith(':') ? rest.slice(1) : undefined;
  const mech = (v: string | undefined): SpfTerm => ({
    kind: 'mechanism',
    qualifier,
    name,
    value: v,
    raw: term,
  });
  switch (name) {
    case 'all':
      return rest === '' ? mech(undefined) : `malformed "${term}"`;
    case 'include':
    case 'exists':
      return value !== undefined && DOMAIN_SPEC.test(value) && !value.includes('/')
        ? mech(value)
        : `"${term}" needs a domain (${name}:<domain>)`;
    case 'ptr':
      return rest === '' || (value !== undefined && DOMAIN_SPEC.test(value))
        ? mech(value)
        : `malformed "${term}"`;
    case 'ip4':
    case 'ip6':
      return value !== undefined && checkIp(value, name === 'ip4' ? 4 : 6)
        ? mech(value)
        : `"${term}" is not a valid ${name} address or network`;
    default: {
      // a, mx: optional ":domain", optional "/cidr" and "//cidr6".
      const spec = value ?? '';
      const slash = spec.indexOf('/');
      const domain = value === undefined ? undefined : slash < 0 ? spec : spec.slice(0, slash);
      const cidr = value === undefined ? rest : slash < 0 ? '' : spec.slice(slash);
      if (domain === '') return `malformed "${term}"`;
      return checkDomainWithCidr(domain, cidr) ? mech(domain) : `malformed "${term}"`;
    }
  }
}

/** Parses the terms after `v=spf1` (RFC 7208 §4.6, §12); the first problem makes the record invalid. */
export function parseSpf(txt: string): SpfParse {
  const [version, ...rest] = txt.trim().split(/\s+/);
  if (version?.toLowerCase() !== 'v=spf1')
    return { ok: false, problem: `version must be "v=spf1", got "${version ?? ''}"` };
  const terms: SpfTerm[] = [];
  const seenModifiers = new Set<string>();
  for (const raw of rest) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(raw);
    if (modifier) {
      const name = (modifier[1] ?? '').toLowerCase();
      const value = modifier[2] ?? '';
      if ((name === 'redirect' || name === 'exp') && (value === '' || !DOMAIN_SPEC.test(value))) {
        return { ok: false, problem: `"${raw}" needs a domain` };
      }
      if ((name === 'redirect' || name === 'exp') && seenModifiers.has(name)) {
        return { ok: false, problem: `"${name}=" appears more than once` };
      }
      seenModifiers.add(name);
      terms.push({ kind: 'modifier', name, value, raw });
      continue;
    }
    const term = parseMechanism(raw);
    if (typeof term === 'string') return { ok: false, problem: term };
    terms.push(term);
  }
  return { ok: true, terms };
}

/** True when the terms include `host` with a pass qualifier (`include:host` or `+include:host`). */
export function includesHost(terms: readonly SpfTerm[], host: string): boolean {
  return terms.some(
    (t) =>
      t.kind === 'mechanism' &&
      t.name === 'include' &&
      t.qualifier === '+' &&
      t.value !== undefined &&
      sameHost(t.value, host),
  );
}

/** The names whose SPF records this record delegates to: pass-qualified includes, then redirect. */
export function delegations(terms: readonly SpfTerm[]): string[] {
  const out: string[] = [];
  for (const t of terms) {
    if (t.kind === 'mechanism' && t.name === 'include' && t.qualifier === '+' && t.value) out.push(t.value);
  }
  // RFC 7208 §6.1: redirect is ignored when the record has an "all" mechanism.
  const hasAll = terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
  const redirect = terms.find((t) => t.kind === 'modifier' && t.name === 'redirect');
  if (redirect?.value !== undefined && !hasAll) out.push(redirect.value);
  return out;
}

export function defaultSpf(includeHost: string): string {
  return `v=spf1 include:${includeHost} ~all`;
}

/**
 * One SPF record authorising `includeHost` that keeps what the customer already
 * publishes: every record's terms in order (duplicates dropped), our include
 * before the final `all`, whose qualifier is the first record's (soft-fail if none).
 * `redirect=` becomes an include, since a redirect is ignored next to `all`;
 * malformed terms are dropped.
 */
export function mergedSpf(records: readonly string[], includeHost: string): string {
  const terms: string[] = [];
  let all: string | undefined;
  const seen = new Set<string>();
  const push = (t: string): void => {
    if (!seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      terms.push(t);
    }
  };
  for (const record of records) {
    for (const raw of record.trim().split(/\s+/).slice(1)) {
      // A term that does not parse is left out: the suggestion must itself be valid.
      if (!parseSpf(`v=spf1 ${raw}`).ok) continue;
      if (/^[+\-~?]?all$/i.test(raw)) all ??= raw.toLowerCase();
      else if (/^redirect=/i.test(raw)) push(`include:${raw.slice('redirect='.length)}`);
      else push(raw);
    }
  }
  const ours = `include:${includeHost}`;
  if (!terms.some((t) => /^\+?include:/i.test(t) && sameHost(t.replace(/^\+?include:/i, ''), includeHost)))
    terms.push(ours);
  return ['v=spf1', ...terms, all ?? '~all'].join(' ');
}
