/**
 * Which TLS, if any, protected each outbound delivery attempt (issue 22 item 3).
 * Haraka 3.3.4's `delivered` hook only says `secured` (yes/no), and its deferred and bounce
 * hooks not even that; the version and cipher exist only on the socket inside
 * outbound/hmail.js. Every attempt on a connection goes through HMailItem's
 * `try_deliver_host_on_socket(mx, host, port, socket)` with the queued message as `this`,
 * so wrapping that method ties the socket to the message: the session starts `plaintext`
 * and becomes `<version> <cipher>` when the STARTTLS upgrade completes (tls_socket.js
 * emits `secure` once `socket.cleartext`, the TLSSocket, is connected). A deferral makes
 * Haraka build a new HMailItem from the queue file at the next retry, so an entry never
 * outlives its attempt. When a Haraka upgrade renames the method this returns false and
 * the caller logs it: mail still flows, the attempts record no TLS (null).
 */

/** The TLSSocket's view of the session (node:tls). */
interface Cleartext {
  getProtocol(): string | null;
  getCipher(): { readonly name?: string } | undefined;
}
export interface OutboundSocket {
  once(event: 'secure', listener: () => void): unknown;
  prependListener(event: 'error', listener: (err: unknown) => void): unknown;
  readonly cleartext?: Cleartext;
}
type TryOnSocket = (this: object, mx: unknown, host: string, port: number, socket: OutboundSocket) => unknown;
type ForceTls = (this: object, mx: unknown) => boolean;
export interface HmailClass {
  readonly prototype: {
    try_deliver_host_on_socket?: TryOnSocket;
    get_force_tls?: ForceTls;
    __mailroomTls?: boolean;
  };
}

/** An attempt whose SMTP session never ran STARTTLS (the remote did not offer it). */
export const PLAINTEXT = 'plaintext';

const sessions = new WeakMap<object, string>();
/** The last TLS handshake failure of a message's attempt (tls_socket.js marks it `source: 'tls'`). */
const failures = new WeakMap<object, string>();
/** Messages whose MX must present a valid certificate (MTA-STS enforce, RFC 8461 §5). */
const verified = new WeakSet<object>();

/** `TLSv1.3 TLS_AES_256_GCM_SHA384`; the version alone if the cipher is unknown. */
export function describeTls(cleartext: Cleartext | undefined): string {
  const version = cleartext?.getProtocol() ?? 'TLS';
  const cipher = cleartext?.getCipher()?.name;
  return cipher === undefined ? version : `${version} ${cipher}`;
}

export function trackOutboundTls(hmailClass: HmailClass): boolean {
  const proto = hmailClass.prototype;
  const original = proto.try_deliver_host_on_socket;
  const forceTls = proto.get_force_tls;
  if (typeof original !== 'function' || typeof forceTls !== 'function') return false;
  if (proto.__mailroomTls === true) return true;
  // Haraka's force_tls is the mode MTA-STS needs: STARTTLS required (else temp_fail), the
  // certificate verified (rejectUnauthorized) against the MX name (servername = from_dns).
  proto.get_force_tls = function (this: object, mx) {
    return verified.has(this) || forceTls.call(this, mx);
  };
  proto.try_deliver_host_on_socket = function (this: object, mx, host, port, socket) {
    sessions.set(this, PLAINTEXT);
    socket.once('secure', () => sessions.set(this, describeTls(socket.cleartext)));
    const result = original.call(this, mx, host, port, socket);
    // After the original, which clears the socket's error listeners; prepended, so it is
    // recorded before Haraka's own handler moves on (next MX, then the deferral).
    socket.prependListener('error', (err) => {
      if ((err as { source?: unknown } | null)?.source === 'tls')
        failures.set(this, `${host}: ${err instanceof Error ? err.message : String(err)}`);
    });
    return result;
  };
  proto.__mailroomTls = true;
  return true;
}

/** This attempt of the message delivers only over TLS with a verified certificate. */
export function requireVerifiedTls(hmail: object): void {
  verified.add(hmail);
}

export function requiresVerifiedTls(hmail: object): boolean {
  return verified.has(hmail);
}

/** The message's last failed TLS handshake (`<host>: <reason>`), if any. */
export function outboundTlsFailureOf(hmail: object): string | undefined {
  return failures.get(hmail);
}

/** The protection of the message's latest SMTP session; null when none was opened. */
export function outboundTlsOf(hmail: object): string | null {
  return sessions.get(hmail) ?? null;
}
