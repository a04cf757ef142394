import { isAppError } from '../../shared/app-error';
import type { SmtpVerdict } from '../smtp-verdict';
import { defer, reject } from '../smtp-verdict';

/** AUTH is offered on the submission listener once the session is encrypted, or always with SUBMISSION_ALLOW_PLAINTEXT. */
export function submissionAuthOffered(tls: boolean, allowPlaintext: boolean): boolean {
  return tls || allowPlaintext;
}

/** The password of AUTH PLAIN/LOGIN: an API key (`re_live_…`); the username is ignored. */
export function apiKeyOf(password: string): string | undefined {
  const key = password.trim();
  return key.startsWith('re_live_') && key.length > 're_live_'.length ? key : undefined;
}

/**
 * Failed AUTH per IP: at most this many in the window, then 454 until it slides. Counted in
 * the database (src/modules/accounts/credential-attempts.ts, key `smtp-auth:<ip>`), so the
 * MTA nodes of a cluster share one budget and a restart does not reset it.
 */
export const SUBMISSION_AUTH_FAILURES = { max: 10, windowMs: 15 * 60_000 } as const;

/** The SMTP reply for an error of submitMessage(): the API's refusals as 5xx, quota as 4xx (the client retries). */
export function submissionErrorVerdict(err: unknown): SmtpVerdict {
  if (!isAppError(err)) return defer(451, '4.3.0', 'Could not queue the message; try again later');
  const text = err.message;
  switch (err.code) {
    case 'SENDING_LIMIT_EXCEEDED':
      return defer(451, '4.7.1', `Sending limit reached; try again later: ${text}`);
    case 'EMAIL_QUEUE_FAILED':
      return defer(451, '4.3.0', text);
    case 'SUPPRESSED_RECIPIENT':
      return reject(550, '5.1.1', text);
    case 'INVALID_RECIPIENT':
      return reject(550, '5.1.3', text);
    case 'TOO_MANY_RECIPIENTS':
      return reject(552, '5.5.3', text);
    case 'EMAIL_TOO_LARGE':
      return reject(552, '5.3.4', text);
    case 'ACCOUNT_SUSPENDED':
      return reject(550, '5.7.1', text);
    case 'DOMAIN_NOT_VERIFIED':
    case 'DOMAIN_NOT_FOUND':
    case 'API_KEY_DOMAIN_RESTRICTED':
    case 'INVALID_FROM_ADDRESS':
      return reject(550, '5.7.1', text);
    default:
      return reject(554, '5.7.0', text);
  }
}
