import crypto from 'node:crypto';
import { verifiedVerp } from '../modules/delivery/verp-address';
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

/**
 * MAIL FROM on the injection listener: only an authenticated worker, and only
 * with a VERP envelope sender whose tag verifies (`bounce+<email_id>.<tag>@bounce.<domain>`,
 * src/modules/delivery/verp-address.ts). Everything the MTA relays must be traceable
 * to an email row: that is how its DKIM key is found (mailroom-dkim refuses an
 * unknown email id at end of data) and its delivery outcomes are recorded. The tag
 * key is asked for only once the session is authenticated. Undefined: no objection.
 */
export function injectMailVerdict(
  authenticated: boolean,
  sender: string,
  tagKey: () => Buffer,
): SmtpVerdict | undefined {
  if (!authenticated) return authRequiredVerdict();
  if (verifiedVerp(sender, tagKey()) === undefined) {
    return reject(550, '5.7.1', `<${clip(sender)}>: not a Mailroom VERP sender; not relayed`);
  }
  return undefined;
}

/** RCPT TO on the injection listener: the authenticated worker may send anywhere (the API screened the recipients). */
export function injectRcptVerdict(authenticated: boolean): SmtpVerdict {
  return authenticated ? accept(250, '2.1.5', 'Recipient ok') : authRequiredVerdict();
}
