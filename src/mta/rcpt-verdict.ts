import { clip } from '../shared/text';
import type { SmtpVerdict } from './smtp-verdict';
import { accept, defer, reject } from './smtp-verdict';

/** A RCPT TO address as Haraka parsed it (source route already dropped, host lower-cased). */
export interface RcptAddress {
  /** Local part as written; a quoted local part keeps its quotes. */
  readonly local: string;
  /** Domain, or '' when the path has none (`RCPT TO:<postmaster>`). */
  readonly host: string;
}

/** Where mail accepted for a host goes: inbound processing of a domain, or bounce processing. */
export type InboundRoute =
  | { readonly kind: 'receive'; readonly domainId: string; readonly userId: string }
  | { readonly kind: 'return-path' };

/** One host this MX receives for. */
export interface ReceivingHost {
  /** Accepted local parts, lower-cased; empty means every local part (spec: Domains, receiving). */
  readonly localParts: ReadonlySet<string>;
  readonly route: InboundRoute;
}

/**
 * What the MX knows about receiving domains, as of now: a cached view of the
 * domains table (src/mta/receiving-view.ts), a plain function of the host.
 */
export interface ReceivingView {
  host(name: string): ReceivingHost | undefined;
}

/**
 * Local parts that ask a downstream system to route again: `%` (the "percent
 * hack"), `!` (UUCP bang paths) and an `@` inside a quoted local part. We never
 * forward mail, but whatever consumes our inbound mail might; refuse them at the
 * door. (A source route, `@a:user@b`, is already dropped by the parser, as RFC
 * 5321 §3.6.1 recommends: only the final `user@b` is judged.)
 */
const RELAY_SYNTAX = /[%!@]/;

/**
 * RFC 5321 §4.5.1: postmaster (case-insensitive) MUST be accepted at every domain
 * the server receives for, whatever its list of addresses. It is routed like the
 * host's other mail, to the inbound mail of the domain's account: the account
 * holder is who answers for the domain. (Issue 17, finding 10.)
 */
const POSTMASTER = 'postmaster';

function unquote(local: string): string {
  return local.length >= 2 && local.startsWith('"') && local.endsWith('"') ? local.slice(1, -1) : local;
}

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/**
 * Decides a RCPT TO. Anything not explicitly received here is refused with a
 * permanent 550: RFC 5321 §3.6.2 says a server declining to relay for policy
 * reasons SHOULD answer 550.
 */
export function rcptVerdict(address: RcptAddress, view: ReceivingView): SmtpVerdict {
  const local = unquote(address.local);
  const host = normalizeHost(address.host);
  const shown = clip(host === '' ? `<${address.local}>` : `<${address.local}@${host}>`);

  if (RELAY_SYNTAX.test(local)) {
    return reject(550, '5.7.1', `${shown}: relay-style address refused`);
  }
  if (host === '') {
    return reject(550, '5.1.1', `${shown}: no such recipient here`);
  }
  const receiving = view.host(host);
  if (receiving === undefined) {
    return reject(550, '5.1.1', `${shown}: no such recipient here`);
  }
  const lower = local.toLowerCase();
  if (receiving.localParts.size > 0 && !receiving.localParts.has(lower) && lower !== POSTMASTER) {
    return reject(550, '5.1.1', `${shown}: no such user here`);
  }
  return accept(250, '2.1.5', `${shown}: recipient ok`);
}

/**
 * The view of receiving domains could not be loaded (database unavailable): we
 * cannot tell who we receive for, so the client retries later (RFC 5321 §4.2.5).
 */
export function rcptUnavailableVerdict(): SmtpVerdict {
  return defer(451, '4.3.0', 'Temporary local problem; try again later');
}
