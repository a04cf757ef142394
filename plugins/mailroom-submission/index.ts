/**
 * The submission listeners (SUBMISSION_PORT, 587 in the image; SMTPS_PORT, implicit
 * TLS, usually 465): applications send through the API's pipeline over SMTP.
 * - AUTH PLAIN/LOGIN (Haraka's auth/auth_base) offered after STARTTLS (mailroom-tls),
 *   at once on SMTPS_PORT (TLS from the first byte), or at once with
 *   SUBMISSION_ALLOW_PLAINTEXT; username anything (`resend` for Resend's
 *   convention), password an API key, held to its domain if it has one. A failed AUTH is audited (`user.login_failed`) and limited per IP.
 * - MAIL: 530 5.7.0 until authenticated. RCPT: any recipient of an authenticated session.
 * - End of DATA (data_post): submitMessage() runs the API's checks and commits in
 *   one transaction; 5xx for a refusal, 451 4.7.1 for quota; then queue_outbound
 *   (authenticated sessions relay) answers 250 with the email id. Haraka's outbound queue is not
 *   used: the worker delivers the stored message (email-send job), DKIM-signed.
 * Must run before mailroom-inject, whose AUTH and queue hooks would otherwise answer.
 */
import constants from 'haraka-constants';
import { authenticateApiKey } from '../../src/modules/api-keys/api-keys.usecases';
import { recordAudit } from '../../src/modules/audit/audit.repository';
import { submitMessage } from '../../src/modules/sending/submit-message';
import { loadConfig } from '../../src/config';
import type { AppConfig } from '../../src/config';
import { mtaDb } from '../../src/mta/mta-runtime';
import { reject } from '../../src/mta/smtp-verdict';
import { signalWork } from '../../src/shared/work-signal';
import { CredentialAttempts } from '../../src/modules/accounts/credential-attempts';
import {
  SUBMISSION_AUTH_FAILURES,
  apiKeyOf,
  submissionAuthOffered,
  submissionErrorVerdict,
} from '../../src/mta/submission-verdicts';
import { iniInteger, iniValue } from '../ini';
import { answer } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin, HarakaTransaction } from '../types';

type Hook = (this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection, params: unknown) => void;

const state = {
  port: 0,
  smtpsPort: 0,
  allowPlaintext: false,
  base: undefined as Hook | undefined,
  config: undefined as AppConfig | undefined,
};
const failures = new WeakMap<object, CredentialAttempts>();

/** Failed AUTH per IP, in the database: shared by every MTA node (docs/security.md). */
function authFailures(): CredentialAttempts {
  const db = mtaDb();
  let limiter = failures.get(db);
  if (limiter === undefined) {
    limiter = new CredentialAttempts(db, SUBMISSION_AUTH_FAILURES.max, SUBMISSION_AUTH_FAILURES.windowMs);
    failures.set(db, limiter);
  }
  return limiter;
}

interface Submitter {
  readonly userId: string;
  readonly apiKeyId: string;
  /** The domain the key is held to (issue 20), null when any. */
  readonly domainId: string | null;
}

function onSubmission(connection: HarakaConnection): boolean {
  const port = connection.local.port;
  return (state.port !== 0 && port === state.port) || (state.smtpsPort !== 0 && port === state.smtpsPort);
}

function tlsOn(connection: HarakaConnection): boolean {
  return (connection as unknown as { tls?: { enabled?: boolean } }).tls?.enabled === true;
}

function submitterOf(connection: HarakaConnection): Submitter | undefined {
  return connection.notes.mailroom_submitter as Submitter | undefined;
}

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
  if (onSubmission(connection) && submissionAuthOffered(tlsOn(connection), state.allowPlaintext)) {
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
  if (!onSubmission(connection) || state.base === undefined) {
    next();
    return;
  }
  state.base.call(this, next, connection, params);
}

/** The password is an API key of an active, unsuspended account. */
export function check_plain_passwd(
  this: HarakaPlugin,
  connection: HarakaConnection,
  _user: string,
  pass: string,
  cb: (valid: boolean, opts?: { code: number; message: string }) => void,
): void {
  const ip = connection.remote.ip ?? '';
  if (!onSubmission(connection) || !submissionAuthOffered(tlsOn(connection), state.allowPlaintext)) {
    cb(false);
    return;
  }
  void (async () => {
    const limitKey = `smtp-auth:${ip}`;
    if (await authFailures().blocked(limitKey)) {
      cb(false, { code: 454, message: '4.7.0 Too many failed authentication attempts; try again later' });
      return;
    }
    const db = mtaDb();
    const token = apiKeyOf(pass);
    const key = token === undefined ? undefined : await authenticateApiKey(db, token);
    if (key === undefined) {
      await authFailures().recordFailure(limitKey);
      await recordAudit(db, {
        actor: { type: 'anonymous', id: null, ip, userAgent: null },
        userId: null,
        action: 'user.login_failed',
        resource: 'api_key',
        resourceId: null,
        details: { via: 'smtp-submission' },
      }).catch(() => undefined);
      connection.logwarn(this, 'submission AUTH refused', { event: 'mta_submission_auth_failed', ip });
      cb(false, { code: 535, message: '5.7.8 Authentication failed: the password must be a live API key' });
      return;
    }
    const user = await db
      .selectFrom('users')
      .select('status')
      .where('id', '=', key.user_id)
      .executeTakeFirst();
    if (user?.status === 'SUSPENDED') {
      cb(false, { code: 535, message: '5.7.8 The account is suspended' });
      return;
    }
    connection.notes.mailroom_submitter = {
      userId: key.user_id,
      apiKeyId: key.id,
      domainId: key.domain_id,
    } satisfies Submitter;
    cb(true);
  })().catch((err: unknown) => {
    connection.logerror(this, 'submission AUTH failed', { event: 'mta_submission_auth_error', err });
    cb(false, { code: 454, message: '4.7.0 Temporary authentication failure' });
  });
}

const AUTH_REQUIRED = reject(530, '5.7.0', 'Authentication required: AUTH with an API key as the password');

export function requireAuth(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onSubmission(connection)) {
    next();
    return;
  }
  answer(next, submitterOf(connection) === undefined || !connection.relaying ? AUTH_REQUIRED : undefined);
}

/** Any recipient of an authenticated session; suppressions and the rest are checked at end of DATA. */
export function acceptRecipient(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onSubmission(connection)) {
    next();
    return;
  }
  if (submitterOf(connection) === undefined || !connection.relaying) {
    answer(next, AUTH_REQUIRED);
    return;
  }
  next(constants.ok);
}

async function readAll(transaction: HarakaTransaction): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of transaction.message_stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function appConfig(): AppConfig {
  state.config ??= loadConfig().config;
  return state.config;
}

/**
 * End of DATA: submitMessage() (mailroom-dkim's injection-only data_post is skipped
 * by answering here). Refusals are answered now, where Haraka keeps the exact code
 * (queue_outbound would turn a 451 into 450); the commit's email id waits for
 * queue_outbound, which answers 250 with it.
 */
export function submitAtEndOfData(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onSubmission(connection)) {
    next();
    return;
  }
  const transaction = connection.transaction;
  const submitter = submitterOf(connection);
  if (transaction === null || submitter === undefined) {
    answer(next, AUTH_REQUIRED);
    return;
  }
  void (async () => {
    const db = mtaDb();
    const raw = await readAll(transaction);
    const { id } = await submitMessage(
      {
        db,
        writes: { run: (work) => db.transaction().execute(work) },
        config: appConfig(),
        userId: submitter.userId,
        apiKeyId: submitter.apiKeyId,
        onlyDomainId: submitter.domainId,
      },
      {
        mailFrom: transaction.mail_from?.address ?? '',
        rcptTo: transaction.rcpt_to.map((r) => r.address),
        raw,
      },
    );
    transaction.notes.mailroom_email_id = id;
    signalWork();
    connection.loginfo(this, 'message submitted', { event: 'mta_submission_queued', emailId: id });
    next(constants.ok);
  })().catch((err: unknown) => {
    const verdict = submissionErrorVerdict(err);
    if (verdict.kind === 'defer' && verdict.status === '4.3.0') {
      connection.logerror(this, 'submission failed', { event: 'mta_submission_failed', err });
    }
    answer(next, verdict);
  });
}

/** The message is committed (end of DATA): 250 with its id. Haraka's outbound queue is not used. */
export function submit(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  if (!onSubmission(connection)) {
    next();
    return;
  }
  const id = connection.transaction?.notes.mailroom_email_id;
  if (typeof id !== 'string') {
    answer(next, reject(554, '5.3.0', 'The message was not accepted'));
    return;
  }
  next(constants.ok, `2.0.0 Queued as ${id}`);
}
