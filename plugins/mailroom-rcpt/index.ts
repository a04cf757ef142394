/**
 * Who we receive mail for. The decision is rcptVerdict() over a view of the
 * receiving domains; no domain exists yet, so the view is empty and every
 * recipient gets 550. This plugin answers every RCPT itself (never CONT), so
 * Haraka's "relaying" shortcut in rcpt_respond, which turns CONT into 250 for
 * a relaying connection, never comes into play: the MX cannot relay.
 */
import { EMPTY_RECEIVING_VIEW, rcptVerdict } from '../../src/mta/rcpt-verdict';
import { answer } from '../smtp-reply';
import type { HarakaAddress, HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

export function register(this: HarakaPlugin): void {
  this.register_hook('rcpt', 'decideRecipient');
}

export function decideRecipient(
  this: HarakaPlugin,
  next: HarakaNext,
  _connection: HarakaConnection,
  params: readonly [HarakaAddress, ...unknown[]],
): void {
  const [address] = params;
  answer(next, rcptVerdict({ local: address.user ?? '', host: address.host ?? '' }, EMPTY_RECEIVING_VIEW));
}
