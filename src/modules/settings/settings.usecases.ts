import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { mailHostnameWarning } from '../../config';
import type { Database } from '../../db/schema';
import { forbidden } from '../../shared/app-error';
import type { UserRow } from '../accounts';
import { findUserById, setOwnLimits } from '../accounts';
import { accountNotFound } from '../accounts';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import type { QuotaConfig } from '../quota';
import { accountUsage } from '../quota';
import { effectiveLimits } from '../quota';

interface Deps {
  readonly db: Kysely<Database>;
  readonly config: QuotaConfig & Pick<Config, 'mailHostname' | 'spfIncludeHost' | 'mxHost' | 'smtpPort'>;
  readonly userId: string;
}

async function requireUser(db: Kysely<Database>, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw accountNotFound();
  return user;
}

/**
 * Whether this server's MAIL_HOSTNAME is a public name, with what breaks and the fix when
 * not: the dashboard shows it on the overview and the domain screens.
 */
function mailHostnameView(config: Pick<Config, 'mailHostname' | 'spfIncludeHost'>) {
  const reason = mailHostnameWarning(config);
  return reason === undefined
    ? { name: config.mailHostname, usable: true }
    : { name: config.mailHostname, usable: false, reason };
}

/**
 * `GET /v1/settings`: the account, its limits (effective; the operator's override; the
 * account's own; the platform default), current usage, whether MAIL_HOSTNAME is usable, and
 * where this server's MX listens (the domain screen's try-it line sends to that port).
 */
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
        own: user.own_emails_per_hour,
        default: deps.config.rateLimitEmailsPerHour,
      },
      emailsPerDay: {
        effective: limits.day,
        override: user.emails_per_day,
        own: user.own_emails_per_day,
        default: deps.config.rateLimitEmailsPerDay,
      },
    },
    usage: await accountUsage(deps.db, user.id, limits),
    mailHostname: mailHostnameView(deps.config),
    mx: { host: deps.config.mxHost, port: deps.config.smtpPort },
  };
}

/**
 * `PATCH /v1/settings/limits`: an account may lower its own limits. They are stored apart
 * from the operator's override and the allowance is the lower of the two, so nothing sent
 * here raises it or clears an operator's throttle (issue 17 finding 7); `null` removes the
 * account's own limit. A value above the operator's override (else the platform default)
 * is FORBIDDEN: raising is an operator action.
 */
export async function lowerOwnLimits(
  deps: Deps & { actor: Actor; input: { emailsPerHour?: number | null; emailsPerDay?: number | null } },
) {
  const { db, config, userId, input } = deps;
  const user = await requireUser(db, userId);
  const ceilings = {
    emailsPerHour: user.emails_per_hour ?? config.rateLimitEmailsPerHour,
    emailsPerDay: user.emails_per_day ?? config.rateLimitEmailsPerDay,
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
    await setOwnLimits(trx, userId, input);
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'settings.limits_updated',
      resource: 'user',
      resourceId: userId,
      details: { ...input, scope: 'own' },
    });
  });
  return getSettings(deps);
}
