import type { Db } from '../../db/connect';
import { CredentialAttempts } from '../../modules/accounts/credential-attempts';
import { authenticateApiKey } from '../../modules/api-keys/api-keys.usecases';
import { recordAudit } from '../../modules/audit/audit.repository';
import { SUBMISSION_AUTH_FAILURES, apiKeyOf } from './submission-verdicts';

/** Who an authenticated submission session sends as (kept in the connection's notes). */
export interface Submitter {
  readonly userId: string;
  readonly apiKeyId: string;
  /** The domain the key is held to (issue 20), null when any. */
  readonly domainId: string | null;
}

/** One AUTH PLAIN/LOGIN on the submission listener: the password (an API key) and the client's IP. */
export interface SubmissionAuthRequest {
  readonly password: string;
  readonly ip: string;
}

/** What AUTH answers: the submitter, or the reply; `failed` when it counted as a failed attempt. */
export type SubmissionAuthVerdict =
  | { readonly ok: true; readonly submitter: Submitter }
  | { readonly ok: false; readonly code: number; readonly message: string; readonly failed: boolean };

const BLOCKED: SubmissionAuthVerdict = {
  ok: false,
  code: 454,
  message: '4.7.0 Too many failed authentication attempts; try again later',
  failed: false,
};
const BAD_KEY: SubmissionAuthVerdict = {
  ok: false,
  code: 535,
  message: '5.7.8 Authentication failed: the password must be a live API key',
  failed: true,
};
const SUSPENDED: SubmissionAuthVerdict = {
  ok: false,
  code: 535,
  message: '5.7.8 The account is suspended',
  failed: false,
};

const limiters = new WeakMap<Db, CredentialAttempts>();

/** Failed AUTH per IP, in the database: shared by every MTA node (docs/security.md). */
function authFailures(db: Db): CredentialAttempts {
  let limiter = limiters.get(db);
  if (limiter === undefined) {
    limiter = new CredentialAttempts(db, SUBMISSION_AUTH_FAILURES.max, SUBMISSION_AUTH_FAILURES.windowMs);
    limiters.set(db, limiter);
  }
  return limiter;
}

/**
 * AUTH on the submission listener: the password is an API key of an active,
 * unsuspended account. Not read-only (the key's last-used time, a failure's count
 * and its `user.login_failed` audit row are writes), so it is a unit of the mta's
 * writer thread (`mta.submission-auth`), never run on Haraka's event loop.
 */
export async function authenticateSubmitter(
  db: Db,
  request: SubmissionAuthRequest,
): Promise<SubmissionAuthVerdict> {
  const limitKey = `smtp-auth:${request.ip}`;
  const failures = authFailures(db);
  if (await failures.blocked(limitKey)) return BLOCKED;
  const token = apiKeyOf(request.password);
  const key = token === undefined ? undefined : await authenticateApiKey(db, token);
  if (key === undefined) {
    await failures.recordFailure(limitKey);
    await recordAudit(db, {
      actor: { type: 'anonymous', id: null, ip: request.ip, userAgent: null },
      userId: null,
      action: 'user.login_failed',
      resource: 'api_key',
      resourceId: null,
      details: { via: 'smtp-submission' },
    }).catch(() => undefined);
    return BAD_KEY;
  }
  const user = await db.selectFrom('users').select('status').where('id', '=', key.user_id).executeTakeFirst();
  if (user?.status === 'SUSPENDED') return SUSPENDED;
  return { ok: true, submitter: { userId: key.user_id, apiKeyId: key.id, domainId: key.domain_id } };
}
