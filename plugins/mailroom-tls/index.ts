/**
 * STARTTLS on the public MX (RFC 3207), with Haraka's own `tls` plugin doing the
 * work: `inherits('tls')` copies its methods here and runs its register(), which
 * loads tls.ini (the certificate src/mta/tls-files.ts wrote into config/) and
 * hooks `capabilities` → advertise_starttls and `unrecognized_command` →
 * upgrade_connection. Methods defined here win over the inherited ones, so the
 * advertisement is ours: never on the loopback injection listener, where the
 * worker's client would otherwise upgrade to a certificate it cannot verify and
 * the bytes never leave the host anyway.
 */
import { listenerOf } from '../../src/mta/listeners';
import { iniInteger } from '../ini';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

type Advertise = (this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection) => void;

const state = { injectPort: 0, advertise: undefined as Advertise | undefined };

interface WithBase {
  readonly base: Record<string, { advertise_starttls?: Advertise } | undefined>;
}

export function register(this: HarakaPlugin): void {
  state.injectPort = iniInteger(this.config.get('mailroom.ini'), 'mailroom.ini', 'inject', 'port');
  this.inherits('tls');
  const parent = (this as unknown as WithBase).base.tls?.advertise_starttls;
  if (typeof parent !== 'function') throw new Error("Haraka's tls plugin has no advertise_starttls()");
  state.advertise = parent;
}

/** The tls plugin's advertisement, on the MX only. */
export function advertise_starttls(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (listenerOf(connection.local.port, state.injectPort) === 'inject' || state.advertise === undefined) {
    next();
    return;
  }
  state.advertise.call(this, next, connection);
}
