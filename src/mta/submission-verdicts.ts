import { isAppError } from '../shared/app-error';
import type { SmtpVerdict } from './smtp-verdict';
import { defer, reject } from './smtp-verdict';

/** AUTH is offered on the submission listener once the session is encrypted, or always with SUBMISSION_ALLOW_PLAINTEXT. */
export function submissionAuthOffered(tls: boolean, allowPlaintext: boolean): boolean {
  return tls || allowPlaintext;
}

/** The password of AUTH PLAIN/LOGIN: an API key (`re_live_…`); the username is ignored. */
export function apiKeyOf(password: string): string | undefined {
  const key = password.trim();
  return key.startsWith('re_live_') && key.length > 're_live_'.length ? key : undefined;
}

/** Failed AUTH per IP: at most `max` in `windowMs`, then refused until the window slides. */
export class AuthFailureLimiter {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly max = 10,
    private readonly windowMs = 15 * 60_000,
  ) {}

  blocked(ip: string, now = Date.now()): boolean {
    return this.recent(ip, now).length >= this.max;
  }

  record(ip: string, now = Date.now()): void {
    const list = this.recent(ip, now);
    list.push(now);
    this.failures.set(ip, list);
  }

  private recent(ip: string, now: number): number[] {
    const list = (this.failures.get(ip) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length === 0) this.failures.delete(ip);
    else this.failures.set(ip, list);
    return list;
  }
}

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
