import type { Kysely } from 'kysely';
import type { Database, SendMode, SuppressionType } from '../../db/schema';
import { defineError } from '../../shared/app-error';
import { refuseLiveEffect } from '../../shared/test-mode';
import type { Actor } from '../audit';
import { recordAudit, systemActor } from '../audit';
import type { SuppressionRow } from './suppressions.repository';
import * as repo from './suppressions.repository';
import { parseAddress } from '../../mail/address';

export const suppressionNotFound = defineError(
  'SUPPRESSION_NOT_FOUND',
  404,
  'No such suppression on this account',
);
export const suppressionExists = defineError(
  'SUPPRESSION_ALREADY_EXISTS',
  409,
  'This address is already suppressed',
);

export interface SuppressionView {
  readonly id: string;
  readonly email: string;
  readonly type: SuppressionType;
  readonly reason: string | null;
  readonly sourceEmailId: string | null;
  readonly createdAt: string;
}

export function suppressionView(r: SuppressionRow): SuppressionView {
  return {
    id: r.id,
    email: r.email,
    type: r.type,
    reason: r.reason,
    sourceEmailId: r.source_email_id,
    createdAt: r.created_at,
  };
}

interface Deps {
  readonly db: Kysely<Database>;
  readonly userId: string;
  readonly actor: Actor;
  /** The caller's mode: a test key reads the list but never changes it. */
  readonly mode: SendMode;
}

export async function createSuppression(
  deps: Deps & { input: { email: string; type: SuppressionType; reason?: string | undefined } },
): Promise<SuppressionView> {
  // The list screens live mail: a test key neither blocks live sends nor re-opens an address.
  refuseLiveEffect(deps.mode);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertSuppression(trx, {
      userId: deps.userId,
      email: deps.input.email,
      type: deps.input.type,
      reason: deps.input.reason ?? null,
    });
    if (!row) {
      const existing = await repo.findSuppressionByEmail(trx, deps.userId, deps.input.email);
      throw suppressionExists(undefined, existing ? { id: existing.id, type: existing.type } : undefined);
    }
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'suppression.created',
      resource: 'suppression',
      resourceId: row.id,
      details: { email: row.email, type: row.type },
    });
    return suppressionView(row);
  });
}

/**
 * The suppression a path names (issue 20): its id (`sup_…`) or its address, compared as
 * stored (lower-cased). Anything else names nothing.
 */
async function findByIdOrEmail(
  db: Kysely<Database>,
  userId: string,
  idOrEmail: string,
): Promise<SuppressionRow | undefined> {
  if (idOrEmail.startsWith('sup_')) return repo.findSuppression(db, userId, idOrEmail);
  const address = parseAddress(idOrEmail.trim())?.address.toLowerCase();
  return address === undefined ? undefined : repo.findSuppressionByEmail(db, userId, address);
}

/** GET /v1/suppressions/{idOrEmail}. */
export async function getSuppression(deps: {
  db: Kysely<Database>;
  userId: string;
  idOrEmail: string;
}): Promise<SuppressionView> {
  const row = await findByIdOrEmail(deps.db, deps.userId, deps.idOrEmail);
  if (!row) throw suppressionNotFound();
  return suppressionView(row);
}

/** DELETE /v1/suppressions/{idOrEmail}: by id or by address. */
export async function removeSuppression(
  deps: Deps & { idOrEmail: string },
): Promise<{ id: string; deleted: true }> {
  // The list screens live mail: a test key neither blocks live sends nor re-opens an address.
  refuseLiveEffect(deps.mode);
  return deps.db.transaction().execute(async (trx) => {
    const row = await findByIdOrEmail(trx, deps.userId, deps.idOrEmail);
    if (!row || !(await repo.deleteSuppression(trx, deps.userId, row.id))) throw suppressionNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'suppression.deleted',
      resource: 'suppression',
      resourceId: row.id,
      details: { email: row.email, type: row.type },
    });
    return { id: row.id, deleted: true };
  });
}

/**
 * Automatic suppressions (hard bounces, complaints, one-click unsubscribes): idempotent,
 * audited with the system as actor, or with whoever posted the unsubscribe link (`actor`).
 * Returns true when the address was newly suppressed. Test mail never suppresses: a
 * simulated bounce must not outlive the test by blocking live sends.
 */
export async function suppressAutomatically(
  db: Kysely<Database>,
  input: {
    userId: string;
    email: string;
    type: SuppressionType;
    reason: string;
    sourceEmailId: string | null;
    /** The mode of the message the bounce, complaint or unsubscribe is about. */
    mode: SendMode;
    actor?: Actor;
  },
): Promise<boolean> {
  if (input.mode === 'test') return false;
  const row = await repo.insertSuppression(db, input);
  if (!row) return false;
  await recordAudit(db, {
    actor: input.actor ?? systemActor,
    userId: input.userId,
    action: 'suppression.created',
    resource: 'suppression',
    resourceId: row.id,
    details: { email: row.email, type: row.type, sourceEmailId: input.sourceEmailId },
  });
  return true;
}
