/**
 * The submission listeners (SUBMISSION_PORT, 587 in the image; SMTPS_PORT, implicit TLS):
 * applications send through the API's pipeline over SMTP (docs/submission.md). A thin
 * adapter: AUTH (an API key as the password) and the end-of-DATA commit are
 * src/mta/submission/, run in the mta's writer thread (mtaSubmission()), so Haraka's
 * event loop only speaks SMTP and streams bytes. 250 with the email id only after the
 * commit; 5xx for a refusal, 451 4.7.1 for quota. AUTH is offered after STARTTLS, at
 * once on SMTPS_PORT or with SUBMISSION_ALLOW_PLAINTEXT. Runs before mailroom-inject.
 */
import constants from 'haraka-constants';
import { mtaSubmission } from '../../src/mta/mta-runtime';
import { reject } from '../../src/mta/smtp-verdict';
import type { Submitter } from '../../src/mta/submission/submission-auth';
import { messageBytes } from '../../src/mta/submission/submission-commit';
import { submissionAuthOffered, submissionErrorVerdict } from '../../src/mta/submission/submission-verdicts';
import { signalWork } from '../../src/shared/work-signal';
import { iniInteger, iniValue } from '../ini';
import { answer } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

type Hook = (this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection, params: unknown) => void;

const state = { port: 0, smtpsPort: 0, allowPlaintext: false, base: undefined as Hook | undefined };

function onSubmission(connection: HarakaConnection): boolean {
  const port = connection.local.port;
  return (state.port !== 0 && port === state.port) || (state.smtpsPort !== 0 && port === state.smtpsPort);
}

function authOffered(connection: HarakaConnection): boolean {
  const tls = (connection as unknown as { tls?: { enabled?: boolean } }).tls?.enabled === true;
  return submissionAuthOffered(tls, state.allowPlaintext);
}

const submitterOf = (c: HarakaConnection) => c.notes.mailroom_submitter as Submitter | undefined;

interface WithBase {
  readonly base: Record<string, { hook_unrecognized_command?: Hook } | undefined>;
}

export const blankout_password = true;

export function register(this: HarakaPlugin): void {
  const ini = this.config.get('mailroom.ini');
  state.port = iniInteger(ini, 'mailroom.ini', 'submission', 'port');
  state.smtpsPort = iniInteger(ini, 'mailroom.ini', 'submission', 'smtps_port');
  const plain = iniValue(ini, 'submission', 'allow_plaintext');
  state.allowPlaintext = plain === true || plain === 'true';
  this.inherits('auth/auth_base');
  const parent = (this as unknown as WithBase).base['auth/auth_base']?.hook_unrecognized_command;
  if (typeof parent !== 'function') throw new Error("Haraka's auth_base has no hook_unrecognized_command()");
  state.base = parent;
  this.register_hook('mail', 'requireAuth');
  // Before mailroom-rcpt (who we receive for on the MX) and mailroom-dkim's
  // injection-only data_post: on this listener the answer is ours.
  this.register_hook('rcpt', 'acceptRecipient');
  this.register_hook('data_post', 'submitAtEndOfData');
  this.register_hook('queue_outbound', 'submit');
}

/** EHLO on the submission listener: AUTH PLAIN LOGIN once encrypted (or plaintext allowed). */
export function hook_capabilities(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (onSubmission(connection) && authOffered(connection)) {
    connection.capabilities.push('AUTH PLAIN LOGIN');
    connection.notes.allowed_auth_methods = ['PLAIN', 'LOGIN'];
  }
  next();
}

/** auth_base's AUTH handling, on the submission listener only (mailroom-inject owns the injection listener's). */
export function hook_unrecognized_command(
  this: HarakaPlugin,
  next: HarakaNext,
  connection: HarakaConnection,
  params: unknown,
): void {
  if (!onSubmission(connection) || state.base === undefined) next();
  else state.base.call(this, next, connection, params);
}

/** The password is an API key of an active, unsuspended account (checked in the writer thread). */
export function check_plain_passwd(
  this: HarakaPlugin,
  connection: HarakaConnection,
  _user: string,
  pass: string,
  cb: (valid: boolean, opts?: { code: number; message: string }) => void,
): void {
  const ip = connection.remote.ip ?? '';
  if (!onSubmission(connection) || !authOffered(connection)) {
    cb(false);
    return;
  }
  // Inside the chain: mtaSubmission() can throw too, and must end up in the 454.
  Promise.resolve()
    .then(() => mtaSubmission().authenticate({ password: pass, ip }))
    .then(
      (verdict) => {
        if (verdict.ok) {
          connection.notes.mailroom_submitter = verdict.submitter;
          cb(true);
          return;
        }
        if (verdict.failed)
          connection.logwarn(this, 'submission AUTH refused', { event: 'mta_submission_auth_failed', ip });
        cb(false, { code: verdict.code, message: verdict.message });
      },
      (err: unknown) => {
        connection.logerror(this, 'submission AUTH failed', { event: 'mta_submission_auth_error', err });
        cb(false, { code: 454, message: '4.7.0 Temporary authentication failure' });
      },
    );
}

const AUTH_REQUIRED = reject(530, '5.7.0', 'Authentication required: AUTH with an API key as the password');

const authenticated = (c: HarakaConnection): boolean => submitterOf(c) !== undefined && c.relaying;

export function requireAuth(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onSubmission(connection)) next();
  else answer(next, authenticated(connection) ? undefined : AUTH_REQUIRED);
}

/** Any recipient of an authenticated session; suppressions and the rest are checked at end of DATA. */
export function acceptRecipient(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onSubmission(connection)) next();
  else if (authenticated(connection)) next(constants.ok);
  else answer(next, AUTH_REQUIRED);
}

/**
 * End of DATA: the bytes to the writer thread, which commits. Refusals are answered here,
 * where Haraka keeps the exact code (queue_outbound would turn a 451 into 450).
 */
export function submitAtEndOfData(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  const submitter = submitterOf(connection);
  if (!onSubmission(connection)) {
    next();
    return;
  }
  if (transaction === null || submitter === undefined) {
    answer(next, AUTH_REQUIRED);
    return;
  }
  const mailFrom = transaction.mail_from?.address ?? '';
  const rcptTo = transaction.rcpt_to.map((r) => r.address);
  messageBytes(transaction.message_stream)
    .then((raw) => mtaSubmission().commit({ submitter, mailFrom, rcptTo, raw }))
    .then(
      ({ id }) => {
        transaction.notes.mailroom_email_id = id;
        signalWork();
        connection.loginfo(this, 'message submitted', { event: 'mta_submission_queued', emailId: id });
        next(constants.ok);
      },
      (err: unknown) => {
        const verdict = submissionErrorVerdict(err);
        if (verdict.kind === 'defer' && verdict.status === '4.3.0')
          connection.logerror(this, 'submission failed', { event: 'mta_submission_failed', err });
        answer(next, verdict);
      },
    );
}

/** The message is committed (end of DATA): 250 with its id. Haraka's outbound queue is not used. */
export function submit(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const id = connection.transaction?.notes.mailroom_email_id;
  if (!onSubmission(connection)) next();
  else if (typeof id !== 'string') answer(next, reject(554, '5.3.0', 'The message was not accepted'));
  else next(constants.ok, `2.0.0 Queued as ${id}`);
}
