import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { forbidden } from '../../shared/app-error';
import type { UserRow } from '../accounts/accounts.repository';
import { findUserById, setLimits } from '../accounts/accounts.repository';
import { accountNotFound } from '../accounts/accounts.errors';
import type { Actor } from '../audit/audit.repository';
import { recordAudit } from '../audit/audit.repository';
import type { QuotaConfig } from '../emails/quota';
import { accountUsage, effectiveLimits } from '../emails/quota';

interface Deps {
  readonly db: Kysely<Database>;
  readonly config: QuotaConfig;
  readonly userId: string;
}

async function requireUser(db: Kysely<Database>, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw accountNotFound();
  return user;
}

/** `GET /v1/settings`: the account, its limits (effective, override, platform default) and current usage. */
export async function getSettings(deps: Deps) {
  const user = await requireUser(deps.db, deps.userId);
  const limits = effectiveLimits(user, deps.config);
  return {
    account: {
      id: user.id,
      email: user.email,
      name: user.name,
      status: user.status,
      createdAt: user.created_at,
    },
    limits: {
      emailsPerHour: {
        effective: limits.hour,
        override: user.emails_per_hour,
        default: deps.config.rateLimitEmailsPerHour,
      },
      emailsPerDay: {
        effective: limits.day,
        override: user.emails_per_day,
        default: deps.config.rateLimitEmailsPerDay,
      },
    },
    usage: await accountUsage(deps.db, user.id, limits),
  };
}

/**
 * `PATCH /v1/settings/limits`: an account may lower its own limits. The ceiling
 * is the higher of the platform default and what an operator granted; anything
 * above is FORBIDDEN (raising is an operator action). `null` returns to the default.
 */
export async function lowerOwnLimits(
  deps: Deps & { actor: Actor; input: { emailsPerHour?: number | null; emailsPerDay?: number | null } },
) {
  const { db, config, userId, input } = deps;
  const user = await requireUser(db, userId);
  const ceilings = {
    emailsPerHour: Math.max(config.rateLimitEmailsPerHour, user.emails_per_hour ?? 0),
    emailsPerDay: Math.max(config.rateLimitEmailsPerDay, user.emails_per_day ?? 0),
  };
  for (const key of ['emailsPerHour', 'emailsPerDay'] as const) {
    const value = input[key];
    if (typeof value === 'number' && value > ceilings[key]) {
      throw forbidden(`${key} can be lowered to at most ${ceilings[key]}; raising it is an operator action`, {
        field: key,
        max: ceilings[key],
      });
    }
  }
  await db.transaction().execute(async (trx) => {
    await setLimits(trx, userId, input);
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'settings.limits_updated',
      resource: 'user',
      resourceId: userId,
      details: { ...input },
    });
  });
  return getSettings(deps);
}
