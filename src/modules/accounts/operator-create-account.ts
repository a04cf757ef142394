import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { randomToken, newId } from '../../shared/ids';
import { hashPassword } from '../../shared/secrets';
import type { Actor } from '../audit';
import { emailAlreadyRegistered } from './accounts.errors';
import type { AccountView } from './accounts.usecases';
import { accountView, createUser } from './accounts.usecases';
import { isUniqueViolation } from './unique-violation';

/**
 * An operator creates an account (`ctl accounts create`), the way in when SIGNUP_MODE is
 * `closed` (it works in every mode). The password is generated and answered once; the person
 * signs in with it and changes it (`POST /v1/auth/change-password`, the dashboard's settings).
 * `email` is already validated and lowercased.
 */
export async function createAccountByOperator(deps: {
  readonly db: Kysely<Database>;
  readonly actor: Actor;
  readonly email: string;
  readonly name: string;
}): Promise<{ readonly account: AccountView; readonly password: string }> {
  const password = randomToken(18);
  const id = newId('usr');
  const passwordHash = await hashPassword(password);
  try {
    const row = await deps.db.transaction().execute((trx) =>
      createUser(trx, {
        actor: deps.actor,
        user: { id, email: deps.email, name: deps.name, passwordHash },
        action: 'user.created',
      }),
    );
    return { account: accountView(row), password };
  } catch (err) {
    if (isUniqueViolation(err)) throw emailAlreadyRegistered();
    throw err;
  }
}
