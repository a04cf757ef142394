import { deriveKey } from '../../shared/secrets';

export const INJECT_USER = 'mailroom-worker';

/**
 * The credential the worker presents (AUTH PLAIN) on the loopback injection
 * listener. Derived from SECRET_KEY, so the worker and the MTA agree without
 * another setting, and nothing else on the host can relay through Haraka.
 */
export function injectCredential(secretKey: string): { user: string; pass: string } {
  return { user: INJECT_USER, pass: deriveKey(secretKey, 'mta-inject').toString('base64url') };
}
