import crypto from 'node:crypto';
import { readVerp } from '../mail/verp-address';
import { clip } from '../shared/text';
import type { Listener } from './listeners';
import { isLoopback } from './listeners';
import type { SmtpVerdict } from './smtp-verdict';
import { accept, reject } from './smtp-verdict';

/**
 * The loopback injection listener: the worker hands over outbound mail here,
 * authenticated with the credential derived from SECRET_KEY
 * (src/modules/delivery/inject-credential.ts). AUTH PLAIN without TLS is acceptable only
 * because the bytes never leave the host: it is offered on this listener and to
 * loopback peers only, never on the public MX.
 */
export function authOffered(listener: Listener, remoteIp: string | null | undefined): boolean {
  return listener === 'inject' && isLoopback(remoteIp);
}

function digest(value: string): Buffer {
  return crypto.createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Whether AUTH PLAIN's user and password are the injection credential. The
 * passwords are compared as SHA-256 digests with timingSafeEqual, so neither
 * their content nor their length shows in the time taken.
 */
export function injectCredentialMatches(
  expected: { readonly user: string; readonly pass: string },
  user: string,
  pass: string,
): boolean {
  const passOk = crypto.timingSafeEqual(digest(pass), digest(expected.pass));
  return passOk && user === expected.user;
}

/** RFC 4954 §6: 530 5.7.0 when a command needs authentication first. */
export function authRequiredVerdict(): SmtpVerdict {
  return reject(530, '5.7.0', 'Authentication required');
}

/** What the injection listener's MAIL check reads. */
export interface InjectSenderChecks {
  /** The key of the tags in-flight mail carries (asked for only once the session is authenticated). */
  readonly tagKey: () => Buffer;
  /** Whether the email row with this id was sent from this domain and is being sent now. */
  readonly isBeingSent: (emailId: string, domain: string) => Promise<boolean>;
}

/**
 * MAIL FROM on the injection listener: only an authenticated worker, and only with
 * the VERP envelope sender of a message it is sending now:
 * `bounce+<email_id>@bounce.<domain>` (or the tagged form of earlier versions, whose
 * tag must verify; src/mail/verp-address.ts), naming an email row sent
 * from that domain and in `processing`. Everything the MTA relays must be traceable to
 * an email row: that is how its DKIM key is found (mailroom-dkim refuses an unknown
 * email id at end of data) and its delivery outcomes are recorded. Undefined: no
 * objection. A failed lookup rejects the promise (the caller answers 451).
 */
export async function injectMailVerdict(
  authenticated: boolean,
  sender: string,
  checks: InjectSenderChecks,
): Promise<SmtpVerdict | undefined> {
  if (!authenticated) return authRequiredVerdict();
  const verp = readVerp(sender, checks.tagKey());
  if (verp === undefined) {
    return reject(550, '5.7.1', `<${clip(sender)}>: not a Mailroom VERP sender; not relayed`);
  }
  if (!(await checks.isBeingSent(verp.emailId, verp.domain))) {
    return reject(550, '5.7.1', `<${clip(sender)}>: no message of that domain is being sent; not relayed`);
  }
  return undefined;
}

/** RCPT TO on the injection listener: the authenticated worker may send anywhere (the API screened the recipients). */
export function injectRcptVerdict(authenticated: boolean): SmtpVerdict {
  return authenticated ? accept(250, '2.1.5', 'Recipient ok') : authRequiredVerdict();
}
