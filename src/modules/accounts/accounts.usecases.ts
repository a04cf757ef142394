import type { Kysely } from 'kysely';
import type { Database, UserRole } from '../../db/schema';
import { accountSuspended, invalidCredentials } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../shared/secrets';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { stopQueuedEmails } from './suspension.repository';
import { accountNotFound, cannotSuspendSelf, emailAlreadyRegistered } from './accounts.errors';
import type { UserRow } from './accounts.repository';
import * as users from './accounts.repository';
import type { SessionSigner } from './sessions';
import type { SignupMode } from './signup';
import { admitRegistration, refuseClosedSignup } from './signup';
import { isUniqueViolation } from './unique-violation';

export interface PublicUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

export interface AccountView extends PublicUser {
  readonly status: 'ACTIVE' | 'SUSPENDED';
  readonly role: UserRole;
  readonly createdAt: string;
  readonly suspendedAt: string | null;
  readonly suspensionReason: string | null;
  /** The operator's overrides (null: the platform default). */
  readonly emailsPerHour: number | null;
  readonly emailsPerDay: number | null;
  /** The account's own lower limits (null: none); the allowance is the lower of the two. */
  readonly ownEmailsPerHour: number | null;
  readonly ownEmailsPerDay: number | null;
}

export interface SessionResult {
  readonly token: string;
  readonly expiresAt: string;
  readonly user: PublicUser;
}

interface Deps {
  readonly db: Kysely<Database>;
  readonly actor: Actor;
}

export function publicUser(row: UserRow): PublicUser {
  return { id: row.id, email: row.email, name: row.name };
}

export function accountView(row: UserRow): AccountView {
  return {
    ...publicUser(row),
    status: row.status,
    role: row.role,
    createdAt: row.created_at,
    suspendedAt: row.suspended_at,
    suspensionReason: row.suspension_reason,
    emailsPerHour: row.emails_per_hour,
    emailsPerDay: row.emails_per_day,
    ownEmailsPerHour: row.own_emails_per_hour,
    ownEmailsPerDay: row.own_emails_per_day,
  };
}

/**
 * Self-service registration under SIGNUP_MODE (signup.ts decides who is admitted, in the
 * transaction that writes the account, so an invitation is consumed exactly once).
 */
export async function register(
  deps: Deps & {
    sessions: SessionSigner;
    signupMode: SignupMode;
    input: { email: string; password: string; name: string; invitation?: string | undefined };
  },
): Promise<SessionResult> {
  const { db, sessions, input } = deps;
  refuseClosedSignup(deps.signupMode);
  const passwordHash = await hashPassword(input.password);
  const id = newId('usr');
  let row: UserRow;
  try {
    row = await db.transaction().execute(async (trx) => {
      const admission = await admitRegistration(trx, {
        mode: deps.signupMode,
        invitation: input.invitation,
        email: input.email,
        userId: id,
        now: isoNow(),
      });
      const actor: Actor = { ...deps.actor, type: 'user', id };
      const inserted = await createUser(trx, {
        actor,
        user: { id, email: input.email, name: input.name, passwordHash },
        action: 'user.registered',
        details: admission.by === 'open' ? undefined : { admittedBy: admission.by },
      });
      if (admission.by === 'invitation') {
        await recordAudit(trx, {
          actor,
          userId: id,
          action: 'invitation.accepted',
          resource: 'invitation',
          resourceId: admission.invitationId,
          details: { email: input.email },
        });
      }
      return inserted;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailAlreadyRegistered();
    throw err;
  }
  const session = await sessions.issue({ userId: row.id, epoch: row.session_epoch });
  return { ...session, user: publicUser(row) };
}

/** Writes an account and its audit row (registration, or an operator's `ctl accounts create`). */
export async function createUser(
  trx: Kysely<Database>,
  at: {
    actor: Actor;
    user: { id: string; email: string; name: string; passwordHash: string };
    action: 'user.registered' | 'user.created';
    details?: Record<string, unknown> | undefined;
  },
): Promise<UserRow> {
  const inserted = await users.insertUser(trx, at.user);
  await recordAudit(trx, {
    actor: at.actor,
    userId: at.user.id,
    action: at.action,
    resource: 'user',
    resourceId: at.user.id,
    ...(at.details === undefined ? {} : { details: at.details }),
  });
  return inserted;
}

export async function login(
  deps: Deps & { sessions: SessionSigner; input: { email: string; password: string } },
): Promise<SessionResult> {
  const { db, sessions, input } = deps;
  const row = await users.findUserByEmail(db, input.email);
  // Hash even for an unknown address so response time does not reveal which accounts exist.
  const ok = await verifyPassword(input.password, row?.password_hash ?? (await decoyPasswordHash()));
  if (!row || !ok) {
    await recordAudit(db, {
      actor: { ...deps.actor, type: 'anonymous', id: null },
      userId: row?.id ?? null,
      action: 'user.login_failed',
      resource: 'user',
      resourceId: row?.id ?? null,
      details: { email: input.email },
    });
    throw invalidCredentials();
  }
  if (row.status === 'SUSPENDED')
    throw accountSuspended(undefined, { reason: row.suspension_reason, suspendedAt: row.suspended_at });
  await recordAudit(db, {
    actor: { ...deps.actor, type: 'user', id: row.id },
    userId: row.id,
    action: 'user.login',
    resource: 'user',
    resourceId: row.id,
  });
  const session = await sessions.issue({ userId: row.id, epoch: row.session_epoch });
  return { ...session, user: publicUser(row) };
}

export async function changePassword(
  deps: Deps & {
    sessions: SessionSigner;
    userId: string;
    input: { currentPassword: string; newPassword: string };
  },
): Promise<SessionResult> {
  const { db, sessions, userId, input } = deps;
  const row = await users.findUserById(db, userId);
  if (!row) throw accountNotFound();
  if (!(await verifyPassword(input.currentPassword, row.password_hash))) {
    await recordAudit(db, {
      actor: deps.actor,
      userId,
      action: 'user.login_failed',
      resource: 'user',
      resourceId: userId,
      details: { during: 'change-password' },
    });
    throw invalidCredentials('Current password is wrong');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await users.updatePassword(trx, userId, passwordHash);
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'user.password_changed',
      resource: 'user',
      resourceId: userId,
    });
  });
  const updated = await users.findUserById(db, userId);
  if (!updated) throw accountNotFound();
  const session = await sessions.issue({ userId, epoch: updated.session_epoch });
  return { ...session, user: publicUser(updated) };
}

/**
 * Logout revokes by the session epoch, the one revocation a stateless JWT has: every session of
 * the account ends, on every device, not only the caller's (documented in docs/api.md).
 */
export async function logout(deps: Deps & { userId: string }): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await users.bumpSessionEpoch(trx, deps.userId);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'user.logout',
      resource: 'user',
      resourceId: deps.userId,
    });
  });
}

export async function getAccount(deps: { db: Kysely<Database>; userId: string }): Promise<AccountView> {
  const row = await users.findUserById(deps.db, deps.userId);
  if (!row) throw accountNotFound();
  return accountView(row);
}

/** Resolves an operator's reference to an account: its id or its email address. */
export async function resolveAccount(db: Kysely<Database>, ref: string): Promise<UserRow> {
  const row = ref.includes('@')
    ? await users.findUserByEmail(db, ref.trim().toLowerCase())
    : await users.findUserById(db, ref);
  if (!row) throw accountNotFound(`No account ${ref}`);
  return row;
}

/**
 * Suspends the account and, in the same transaction, stops its queued and scheduled
 * messages (`failed`, event `stopped`). Reinstating does not resume them, nor revive the
 * account's sessions. An operator (by its session) cannot suspend its own account.
 */
export async function suspendAccount(
  deps: Deps & { ref: string; reason: string },
): Promise<AccountView & { readonly stoppedEmails: number }> {
  const { db } = deps;
  const row = await resolveAccount(db, deps.ref);
  if (deps.actor.type === 'operator' && deps.actor.id === row.id) throw cannotSuspendSelf();
  const stoppedEmails = await db.transaction().execute(async (trx) => {
    const at = isoNow();
    await users.setSuspension(trx, row.id, { reason: deps.reason, at });
    const stopped = await stopQueuedEmails(trx, { userId: row.id, reason: 'account suspended', at });
    await recordAudit(trx, {
      actor: deps.actor,
      userId: row.id,
      action: 'user.suspended',
      resource: 'user',
      resourceId: row.id,
      details: { reason: deps.reason, stoppedEmails: stopped },
    });
    return stopped;
  });
  return { ...(await getAccount({ db, userId: row.id })), stoppedEmails };
}

export async function reinstateAccount(deps: Deps & { ref: string; reason?: string }): Promise<AccountView> {
  const { db } = deps;
  const row = await resolveAccount(db, deps.ref);
  await db.transaction().execute(async (trx) => {
    await users.setSuspension(trx, row.id, null);
    // Sessions issued before the suspension stay dead: no session can be issued while
    // suspended (login refuses), so bumping the epoch now ends exactly those.
    if (row.status === 'SUSPENDED') await users.bumpSessionEpoch(trx, row.id);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: row.id,
      action: 'user.reinstated',
      resource: 'user',
      resourceId: row.id,
      ...(deps.reason === undefined ? {} : { details: { reason: deps.reason } }),
    });
  });
  return getAccount({ db, userId: row.id });
}

/**
 * Operator override of an account's quotas (raise or throttle); null returns a limit to the
 * platform default. The account's own lower limits stay, and still lower the allowance.
 */
export async function setAccountLimits(
  deps: Deps & { ref: string; limits: { emailsPerHour?: number | null; emailsPerDay?: number | null } },
): Promise<AccountView> {
  const { db } = deps;
  const row = await resolveAccount(db, deps.ref);
  await db.transaction().execute(async (trx) => {
    await users.setLimits(trx, row.id, deps.limits);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: row.id,
      action: 'settings.limits_updated',
      resource: 'user',
      resourceId: row.id,
      details: { ...deps.limits, scope: 'operator' },
    });
  });
  return getAccount({ db, userId: row.id });
}

/**
 * Gives or takes the operator role (`ctl accounts grant-operator|revoke-operator`). Only the
 * command line grants it: an operator's powers reach every account, so no API route can
 * make one, and the first account registered is not one by default (on a public instance
 * that would be whoever registered first).
 */
export async function setRole(deps: Deps & { ref: string; role: UserRole }): Promise<AccountView> {
  const { db } = deps;
  const row = await resolveAccount(db, deps.ref);
  await db.transaction().execute(async (trx) => {
    await users.setRole(trx, row.id, deps.role);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: row.id,
      action: deps.role === 'operator' ? 'user.operator_granted' : 'user.operator_revoked',
      resource: 'user',
      resourceId: row.id,
    });
  });
  return getAccount({ db, userId: row.id });
}
