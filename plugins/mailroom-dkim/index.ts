/**
 * DKIM signing of every message handed over on the injection listener, with the
 * sending domain's key (part 2's selector, relaxed/relaxed, rsa-sha256):
 * - end of DATA (`data_post`, relaying sessions only): the VERP sender names the
 *   email row, whose domain's key is looked up and unsealed now, while the worker
 *   can still be told: 550 5.7.1 for an unknown email, 451 4.3.0 when the key is
 *   unavailable (database, SECRET_KEY). Nothing is ever sent unsigned.
 * - `pre_send_trans_email`: signs. This hook runs inside outbound.send_trans_email
 *   after Haraka has added any missing Date/Message-ID and its Received header,
 *   just before the queue files are written, so the signature covers the message
 *   exactly as it leaves. Haraka queues the message whatever the hook answers, so
 *   a failure here marks the message (UNSIGNED_NOTE) and mailroom-outbound refuses
 *   to route it.
 */
import { emailIdFromVerp } from '../../src/modules/delivery/mta-outcome';
import { dkimSignatureValue } from '../../src/mail/dkim-sign';
import { mtaSigningKeys } from '../../src/mta/mta-runtime';
import { UNSIGNED_NOTE, keepSigningKey, takeSigningKey } from '../../src/mta/signing-state';
import { defer, reject } from '../../src/mta/smtp-verdict';
import { answer } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin, HarakaSendContext } from '../types';

export function register(this: HarakaPlugin): void {
  this.register_hook('data_post', 'findSigningKey');
  this.register_hook('pre_send_trans_email', 'signMessage');
}

const NO_FROM = reject(550, '5.6.0', 'Message has no From header; it cannot be signed');
const UNKNOWN_EMAIL = reject(550, '5.7.1', 'No such message to send (unknown email id)');
const KEY_UNAVAILABLE = defer(451, '4.3.0', 'Signing key unavailable; try again later');

export function findSigningKey(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  // Only relaying (authenticated injection) sessions reach the outbound queue.
  if (transaction === null || !connection.relaying) {
    next();
    return;
  }
  const emailId = emailIdFromVerp(transaction.mail_from?.address ?? '');
  if (emailId === undefined) {
    answer(next, UNKNOWN_EMAIL); // mailroom-inject refused this sender at MAIL already
    return;
  }
  if (transaction.header.get('From').trim() === '') {
    answer(next, NO_FROM);
    return;
  }
  // Inside the chain: loading the configuration or opening the database can throw too.
  void Promise.resolve()
    .then(() => mtaSigningKeys().lookup(emailId))
    .then(
      (found) => {
        switch (found.kind) {
          case 'found':
            keepSigningKey(transaction, found.key);
            next();
            return;
          case 'unknown-email':
            connection.logwarn(this, 'no email row for the VERP sender', {
              event: 'dkim_unknown_email',
              emailId,
            });
            answer(next, UNKNOWN_EMAIL);
            return;
          case 'unavailable':
            connection.logerror(this, 'DKIM key unavailable; message deferred', {
              event: 'dkim_key_unavailable',
              emailId,
              reason: found.reason,
            });
            answer(next, KEY_UNAVAILABLE);
            return;
        }
      },
      (err: unknown) => {
        connection.logerror(this, 'DKIM key lookup failed', { event: 'dkim_key_unavailable', emailId, err });
        answer(next, KEY_UNAVAILABLE);
      },
    );
}

async function readAll(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

export function signMessage(this: HarakaPlugin, next: HarakaNext, context: HarakaSendContext): void {
  const transaction = context.transaction;
  const emailId = emailIdFromVerp(transaction.mail_from?.address ?? '');
  const key = takeSigningKey(transaction);
  if (key === undefined) {
    if (emailId !== undefined) {
      // Cannot happen through the injection listener (data_post found the key).
      transaction.notes[UNSIGNED_NOTE] = true;
      context.logerror(this, 'no signing key for an outbound message; it will not be sent', {
        event: 'dkim_sign_failed',
        emailId,
      });
    }
    // Otherwise not ours (Haraka's own DSN): nothing to sign it with.
    next();
    return;
  }
  // Haraka's record of the injection hop's AUTH ("auth=pass (plain)") describes our
  // internal hand-off; receivers have no use for it and it is not ours to publish.
  transaction.remove_header('Authentication-Results');
  readAll(transaction.message_stream)
    .then((message) => dkimSignatureValue(message, key))
    .then(
      (signature) => {
        transaction.add_leading_header('DKIM-Signature', signature);
        context.loginfo(this, 'DKIM-signed', {
          event: 'dkim_signed',
          emailId,
          domain: key.domain,
          selector: key.selector,
        });
        next();
      },
      (err: unknown) => {
        transaction.notes[UNSIGNED_NOTE] = true;
        context.logerror(this, 'DKIM signing failed; the message will not be sent', {
          event: 'dkim_sign_failed',
          emailId,
          domain: key.domain,
          error: err instanceof Error ? err.message : String(err),
        });
        next();
      },
    );
}
