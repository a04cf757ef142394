import { hasControlChars } from '../../shared/text';

/**
 * Mailbox parsing for the send API: `user@domain` or `Name <user@domain>`.
 * Deliberately stricter than RFC 5322: no comments, no quoted local parts, no
 * source routes, no IP-literal domains. That is what relays actually accept and it
 * leaves no room for header or envelope injection.
 */
export interface Mailbox {
  /** The address with its domain lower-cased (local parts are case-sensitive by RFC, kept as given). */
  readonly address: string;
  readonly localPart: string;
  readonly domain: string;
  readonly name: string | null;
}

// RFC 5322 §3.2.3 atext, dot-atom form.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function parseAddress(input: string): Omit<Mailbox, 'name'> | undefined {
  const at = input.lastIndexOf('@');
  if (at <= 0 || at === input.length - 1) return undefined;
  const localPart = input.slice(0, at);
  const domain = input
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  // RFC 5321 §4.5.3.1: 64 octets of local part, 255 of domain, 254 of path in practice.
  if (localPart.length > 64 || domain.length > 253 || input.length > 254) return undefined;
  if (!LOCAL_PART.test(localPart)) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return undefined;
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return undefined;
  return { address: `${localPart}@${domain}`, localPart, domain };
}

// The unquoted name keeps its blanks (trimmed below): `\s*([^<>"]*?)\s*<` let three quantifiers
// share them, cubic on a long run of spaces without "<" (issue 17 finding 2).
const NAMED = /^(?:\s*"((?:[^"\\]|\\.)*)"\s*|([^<>"]*))<([^<>\s]+)>\s*$/;

export function parseMailbox(input: string): Mailbox | undefined {
  if (hasControlChars(input)) return undefined;
  const named = NAMED.exec(input);
  if (named) {
    const name = (named[1] ?? named[2] ?? '').replace(/\\(.)/g, '$1').trim();
    const parsed = parseAddress(named[3] ?? '');
    return parsed ? { ...parsed, name: name === '' ? null : name } : undefined;
  }
  const parsed = parseAddress(input.trim());
  return parsed ? { ...parsed, name: null } : undefined;
}

/** The envelope form used to compare addresses (suppressions, duplicates): whole address lower-cased. */
export function canonicalAddress(address: string): string {
  return address.toLowerCase();
}
