import net from 'node:net';
import { isPublicIp } from '../shared/public-ip';
import type { Config } from './config-table';

/** Names that only resolve on this host or inside a private network. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'lan', 'home.arpa', 'test'];

function isLocalHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (net.isIP(name) !== 0) return !isPublicIp(name);
  return LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * Why SIGNUP_MODE=open is risky here, or undefined when it is not: with `open`, anyone who
 * reaches the API can register, verify a domain they control and send through this host's IP.
 * That is fine on a closed network; a BASE_URL that is neither loopback nor private says the
 * API is meant to be reached from outside. Said at boot and by `ctl doctor`.
 */
export function openSignupWarning(config: Pick<Config, 'signupMode' | 'baseUrl'>): string | undefined {
  if (config.signupMode !== 'open') return undefined;
  if (isLocalHost(new URL(config.baseUrl).hostname)) return undefined;
  return (
    `SIGNUP_MODE is open and BASE_URL ${config.baseUrl} is not a loopback or private address: ` +
    `anyone who reaches the API can create an account and send mail through this host. ` +
    `Use SIGNUP_MODE=invite (the default) unless the network is closed.`
  );
}
