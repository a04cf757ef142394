/**
 * The loopback injection listener (127.0.0.1:MTA_INJECT_PORT), where the worker
 * hands over outbound mail:
 * - AUTH PLAIN, offered only there and only to loopback peers, without TLS (the
 *   bytes never leave the host); the protocol is Haraka's auth/auth_base, the
 *   check ours (constant-time, src/mta/inject-verdicts.ts). Success makes the
 *   connection `relaying`.
 * - MAIL: 530 5.7.0 until authenticated; only the VERP sender of a message being
 *   sent now, from its own domain (every relayed message belongs to an email row);
 *   451 when that cannot be looked up.
 * - RCPT: every recipient of an authenticated session.
 * - Queueing (`queue_outbound`): Haraka's outbound queue, each queue file checked
 *   complete (size against the message: src/mta/queue-file-check.ts), then an fsync
 *   of the queue directory, and only then 250; a local failure is 451, never 550.
 * On the public MX these hooks have no opinion, AUTH is neither advertised nor
 * accepted, and nothing relays.
 */
import constants from 'haraka-constants';
import {
  authOffered,
  injectCredentialMatches,
  injectMailVerdict,
  injectRcptVerdict,
} from '../../src/mta/inject-verdicts';
import { listenerOf } from '../../src/mta/listeners';
import { expectedInjectCredential, mtaInjectSenderChecks } from '../../src/mta/mta-runtime';
import type { ProcessDelivery } from '../../src/mta/queue-file-check';
import { verifyingProcessDelivery } from '../../src/mta/queue-file-check';
import { defer } from '../../src/mta/smtp-verdict';
import { coalescedDirectorySync } from '../../src/shared/sync-directory';
import { iniInteger } from '../ini';
import { answer, dsnOf } from '../smtp-reply';
import type { HarakaAddress, HarakaConnection, HarakaNext, HarakaPlugin, HarakaTransaction } from '../types';

interface Outbound {
  send_trans_email(transaction: HarakaTransaction, next: (code: number, msg?: unknown) => void): void;
  process_delivery: ProcessDelivery;
}

const state = {
  injectPort: 0,
  outbound: undefined as Outbound | undefined,
  syncQueueDir: undefined as (() => Promise<void>) | undefined,
};

function onInjectListener(connection: HarakaConnection): boolean {
  return listenerOf(connection.local.port, state.injectPort) === 'inject';
}

function isOutbound(value: unknown): value is Outbound {
  const outbound = value as Partial<Outbound> | null;
  return typeof outbound?.send_trans_email === 'function' && typeof outbound.process_delivery === 'function';
}

/** auth_base keeps the password in connection.notes.auth_passwd unless told not to. */
export const blankout_password = true;

export function register(this: HarakaPlugin): void {
  state.injectPort = iniInteger(this.config.get('mailroom.ini'), 'mailroom.ini', 'inject', 'port');
  const outbound = this.haraka_require('outbound');
  if (!isOutbound(outbound)) throw new Error("Haraka's outbound module has no send_trans_email()");
  // A truncated queue file must never be answered 250 (src/mta/queue-file-check.ts).
  outbound.process_delivery = verifyingProcessDelivery(outbound.process_delivery);
  state.outbound = outbound;
  const queue = this.haraka_require('outbound/queue') as { queue_dir?: unknown } | null;
  if (typeof queue?.queue_dir !== 'string') throw new Error("Haraka's outbound queue has no queue_dir");
  state.syncQueueDir = coalescedDirectorySync(queue.queue_dir);
  // AUTH parsing, the 334 exchange and the failure delay come from auth_base; its
  // hook_capabilities (TLS only) and password check are replaced by ours below.
  this.inherits('auth/auth_base');
  this.register_hook('mail', 'checkSender');
  this.register_hook('rcpt', 'acceptRecipient');
  this.register_hook('queue_outbound', 'queueForDelivery');
}

/** EHLO: `AUTH PLAIN` on the injection listener for loopback peers; nowhere else. */
export function hook_capabilities(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (authOffered(listenerOf(connection.local.port, state.injectPort), connection.remote.ip)) {
    connection.capabilities.push('AUTH PLAIN');
    // auth_base accepts only the methods listed here: without it, AUTH is "unrecognized".
    connection.notes.allowed_auth_methods = ['PLAIN'];
  }
  next();
}

/** auth_base's password check, replaced: the injection credential, compared in constant time. */
export function check_plain_passwd(
  this: HarakaPlugin,
  connection: HarakaConnection,
  user: string,
  pass: string,
  cb: (valid: boolean) => void,
): void {
  let valid = false;
  if (authOffered(listenerOf(connection.local.port, state.injectPort), connection.remote.ip)) {
    try {
      valid = injectCredentialMatches(expectedInjectCredential(), user, pass);
    } catch (err) {
      connection.logerror(this, 'cannot load the injection credential', {
        event: 'mta_inject_auth_error',
        err,
      });
    }
  }
  if (!valid) {
    connection.logwarn(this, 'injection AUTH refused', {
      event: 'mta_inject_auth_failed',
      ip: connection.remote.ip,
    });
  }
  cb(valid);
}

const SENDER_UNCHECKED = defer(451, '4.3.0', 'Sender cannot be checked now; try again later');

export function checkSender(
  this: HarakaPlugin,
  next: HarakaNext,
  connection: HarakaConnection,
  params: readonly [HarakaAddress, ...unknown[]],
): void {
  if (!onInjectListener(connection)) {
    next();
    return;
  }
  const sender = params[0].address;
  // Inside the chain: loading the configuration or opening the database can throw too.
  void Promise.resolve()
    .then(() => injectMailVerdict(connection.relaying, sender, mtaInjectSenderChecks()))
    .then(
      (verdict) => answer(next, verdict),
      (err: unknown) => {
        connection.logerror(this, 'cannot check the injected sender', {
          event: 'mta_inject_sender_error',
          err,
        });
        answer(next, SENDER_UNCHECKED);
      },
    );
}

export function acceptRecipient(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onInjectListener(connection)) {
    next();
    return;
  }
  answer(next, injectRcptVerdict(connection.relaying));
}

const QUEUE_FAILED = defer(451, '4.3.0', 'Could not queue the message; try again later');

/**
 * Replaces Haraka's default for relaying connections (send_trans_email with its
 * answer mapped to 550 for anything but OK, even a full disk) so that:
 * - 250 comes only after every queue file is fsynced and renamed (Haraka) AND
 *   the queue directory is fsynced (here; concurrent sessions share one fsync), so
 *   the renames survive a power loss;
 * - any local failure is a 451, which the worker retries. When the directory
 *   fsync fails the files may still be delivered: a duplicate, never a loss.
 */
export function queueForDelivery(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  const outbound = state.outbound;
  const syncQueueDir = state.syncQueueDir;
  if (transaction === null || outbound === undefined || syncQueueDir === undefined) {
    next(constants.denysoft, dsnOf(QUEUE_FAILED));
    return;
  }
  outbound.send_trans_email(transaction, (code, msg) => {
    if (code !== constants.ok) {
      connection.logerror(this, 'outbound queue refused the message', {
        event: 'mta_queue_failed',
        code: constants.translate(code),
        msg: String(msg),
      });
      next(constants.denysoft, dsnOf(QUEUE_FAILED));
      return;
    }
    syncQueueDir().then(
      () => next(constants.ok, 'Message Queued'),
      (err: unknown) => {
        connection.logerror(this, 'fsync of the queue directory failed', { event: 'mta_queue_failed', err });
        next(constants.denysoft, dsnOf(QUEUE_FAILED));
      },
    );
  });
}
