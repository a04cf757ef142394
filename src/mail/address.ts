import addressparser from 'nodemailer/lib/addressparser';
import { hasControlChars } from '../shared/text';

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

/**
 * RFC 5322 §3.4: `,` separates mailboxes and `:` `;` delimit a group, so in an
 * unquoted display name they turn one mailbox into several for every later
 * parser (issue 17, finding 4: `ceo@bank.example, <news@a.example>` was one
 * mailbox here and two in nodemailer). Such a name must be quoted.
 */
const LIST_SPECIALS = /[,;:]/;

export function parseMailbox(input: string): Mailbox | undefined {
  if (hasControlChars(input)) return undefined;
  const named = NAMED.exec(input);
  let mailbox: Mailbox | undefined;
  if (named) {
    if (named[2] !== undefined && LIST_SPECIALS.test(named[2])) return undefined;
    const name = (named[1] ?? named[2] ?? '').replace(/\\(.)/g, '$1').trim();
    const parsed = parseAddress(named[3] ?? '');
    mailbox = parsed ? { ...parsed, name: name === '' ? null : name } : undefined;
  } else {
    const parsed = parseAddress(input.trim());
    mailbox = parsed ? { ...parsed, name: null } : undefined;
  }
  return mailbox && isOneMailboxFor(input, mailbox.address) ? mailbox : undefined;
}

/**
 * The class of finding 4 is two parsers disagreeing about a header. Besides never
 * handing the raw text to nodemailer again (mime-builder.ts builds from the parsed
 * parts), the text must read as this one mailbox to nodemailer's parser as well,
 * which is also what the submission path and many receivers use.
 */
function isOneMailboxFor(input: string, address: string): boolean {
  const theirs = addressparser(input);
  const only = theirs.length === 1 ? theirs[0] : undefined;
  if (only === undefined || 'group' in only) return false;
  return only.address.toLowerCase() === address.toLowerCase();
}

/** How a refused mailbox should have been written (the API's and the submission's message). */
export const MAILBOX_FORMS =
  'one mailbox, `user@domain` or `Name <user@domain>`; quote a display name that contains , ; or :';

/** The envelope form used to compare addresses (suppressions, duplicates): whole address lower-cased. */
export function canonicalAddress(address: string): string {
  return address.toLowerCase();
}
