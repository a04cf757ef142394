import type { DkimSigningKey } from '../mail/dkim-sign';

/**
 * The key a message will be signed with, from the end of DATA (where a missing
 * key can still be refused) to `pre_send_trans_email` (where it cannot: Haraka
 * queues the message whatever that hook answers). Keyed by Haraka's transaction
 * object and held weakly; never in transaction notes, which Haraka writes into
 * every queue file.
 */
const keys = new WeakMap<object, DkimSigningKey>();

export function keepSigningKey(transaction: object, key: DkimSigningKey): void {
  keys.set(transaction, key);
}

export function takeSigningKey(transaction: object): DkimSigningKey | undefined {
  const key = keys.get(transaction);
  keys.delete(transaction);
  return key;
}

/**
 * Set in transaction notes (so it is in every queue file of the message) when
 * signing failed after the message was accepted: mailroom-outbound then refuses
 * to route it and records a `failed` outcome instead of sending it unsigned.
 */
export const UNSIGNED_NOTE = 'mailroom_unsigned';

/**
 * Set in the notes of a message whose MX resolved only to addresses the outbound
 * guard refuses (src/mta/mx-guard.ts): mailroom-outbound records its recipients
 * as `failed` with this text instead of Haraka's "No MX for <domain>".
 */
export const REFUSED_MX_NOTE = 'mailroom_refused_mx';
