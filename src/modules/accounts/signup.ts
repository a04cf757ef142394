import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/schema';
import { invitationInvalid, invitationRequired, signupClosed } from './accounts.errors';
import { isUniqueViolation } from './unique-violation';
import { invitationTokenHash } from './invitations';
import { claimFirstAccount, consumeInvitation, countUsers } from './invitations.repository';

export type SignupMode = Config['signupMode'];

/** How a registration was admitted, for its audit row. */
export type Admission =
  | { readonly by: 'open' }
  | { readonly by: 'first_account' }
  | { readonly by: 'invitation'; readonly invitationId: string };

/** Before any work: a closed server registers nobody. */
export function refuseClosedSignup(mode: SignupMode): void {
  if (mode === 'closed') throw signupClosed();
}

/**
 * Decides, inside the transaction that creates the account (before its row is written), whether
 * this registration may happen under SIGNUP_MODE. Nothing here reads the users by address, so
 * the refusal is the same whether or not the address has an account.
 * - `invite` with a token: consumes the invitation, which must be pending and bound to `email`
 *   (one INVITATION_INVALID for every reason); the conditional update makes it single use.
 * - `invite` without one: only the first account of an empty install, claimed through the
 *   `first_account` key so two concurrent first registrations admit exactly one.
 */
export async function admitRegistration(
  trx: Kysely<Database>,
  at: {
    readonly mode: SignupMode;
    readonly invitation: string | undefined;
    readonly email: string;
    readonly userId: string;
    readonly now: string;
  },
): Promise<Admission> {
  refuseClosedSignup(at.mode);
  if (at.mode === 'open') return { by: 'open' };
  if (at.invitation !== undefined) {
    const invitationId = await consumeInvitation(trx, {
      tokenHash: invitationTokenHash(at.invitation),
      email: at.email,
      userId: at.userId,
      now: at.now,
    });
    if (invitationId === undefined) throw invitationInvalid();
    return { by: 'invitation', invitationId };
  }
  if ((await countUsers(trx)) > 0) throw invitationRequired();
  try {
    await claimFirstAccount(trx, at.userId, at.now);
  } catch (err) {
    if (isUniqueViolation(err)) throw invitationRequired();
    throw err;
  }
  return { by: 'first_account' };
}
