import type { AppError } from '../../shared/app-error';
import { suppressedRecipient } from '../emails';

/** A suppressed recipient of a send: why it is on the list (`simulated`: the simulator's address), and since when. */
export interface SuppressedRecipient {
  readonly email: string;
  readonly type: string;
  readonly since: string | null;
}

const WHY: Readonly<Record<string, string>> = {
  hard_bounce: 'hard bounce',
  soft_bounce: 'repeated soft bounces',
  complaint: 'spam complaint',
  unsubscribe: 'unsubscribed',
  manual: 'added by hand',
  simulated: 'the simulator’s suppressed address',
};

/**
 * SUPPRESSED_RECIPIENT that says why each address is suppressed, since when, and how to lift it
 * (the dashboard shows the message as it is). `details.recipients` stays the list of addresses.
 */
export function suppressedRefusal(suppressed: readonly SuppressedRecipient[]): AppError {
  const listed = suppressed
    .map((s) => `${s.email} (${WHY[s.type] ?? s.type}${s.since === null ? '' : ` since ${s.since}`})`)
    .join(', ');
  const lift = suppressed.some((s) => s.type === 'complaint' || s.type === 'unsubscribe')
    ? ' A complaint or an unsubscribe is the recipient’s wish: lift it only with their consent.'
    : '';
  return suppressedRecipient(
    `Not sent: ${suppressed.length === 1 ? 'a recipient is' : 'recipients are'} suppressed on this account: ${listed}. Nothing was sent to any recipient. Remove an address with DELETE /v1/suppressions/{email} (or on the dashboard’s Suppressions screen) once it can receive mail again, then send again.${lift}`,
    {
      recipients: suppressed.map((s) => s.email),
      suppressions: suppressed.map((s) => ({ email: s.email, type: s.type, since: s.since })),
    },
  );
}
