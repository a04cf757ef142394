import type { RoutedRecipient } from './inbound-intake';

/**
 * The route of every recipient mailroom-rcpt accepted, per transaction, for
 * mailroom-inbound's queue hook: decided once at RCPT, so a domain change
 * between RCPT and end of data cannot send a message somewhere the client was
 * not told about. Keyed weakly on Haraka's transaction object (both plugins are
 * loaded with a real `require` and share this module); never in transaction
 * notes, which other plugins and logs see.
 */
const routes = new WeakMap<object, RoutedRecipient[]>();

export function recordRoute(transaction: object, recipient: RoutedRecipient): void {
  const list = routes.get(transaction) ?? [];
  list.push(recipient);
  routes.set(transaction, list);
}

export function routesOf(transaction: object): readonly RoutedRecipient[] {
  return routes.get(transaction) ?? [];
}
