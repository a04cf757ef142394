import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId, randomToken } from '../../shared/ids';
import { sha256Hex } from '../../shared/secrets';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { emailAlreadyRegistered, invitationNotFound } from './accounts.errors';
import { findUserByEmail } from './accounts.repository';
import type { InvitationRow } from './invitations.repository';
import * as invitations from './invitations.repository';

const DAY_MS = 86_400_000;
export const INVITATION_DAYS_DEFAULT = 7;
export const INVITATION_DAYS_MAX = 90;

export interface InvitationView {
  readonly id: string;
  readonly email: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface CreatedInvitation extends InvitationView {
  /** Shown once: only its hash is stored. */
  readonly token: string;
  /** The dashboard's sign-up screen with the token in the fragment (never sent to a server). */
  readonly url: string;
}

function view(row: InvitationRow): InvitationView {
  return {
    id: row.id,
    email: row.email,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** The invitation's token as stored: looked up by its hash, never compared in the clear. */
export function invitationTokenHash(token: string): string {
  return sha256Hex(token);
}

/**
 * An operator invites an address (`ctl accounts invite`, the operator screen). Refused for an
 * address that has an account already, so a valid invitation never meets an existing account
 * at registration (where the answer must not say which addresses have one).
 * `email` is already validated and lowercased (the schemas' emailField).
 */
export async function createInvitation(deps: {
  readonly db: Kysely<Database>;
  readonly actor: Actor;
  readonly baseUrl: string;
  readonly email: string;
  readonly expiresInDays?: number | undefined;
}): Promise<CreatedInvitation> {
  const { db, email } = deps;
  if (await findUserByEmail(db, email)) {
    throw emailAlreadyRegistered(`${email} has an account already: no invitation needed`);
  }
  const token = `inv_${randomToken(32)}`;
  const now = Date.now();
  const row: InvitationRow = {
    id: newId('inv'),
    email,
    token_hash: invitationTokenHash(token),
    created_by: deps.actor.id ?? deps.actor.type,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + (deps.expiresInDays ?? INVITATION_DAYS_DEFAULT) * DAY_MS).toISOString(),
    accepted_at: null,
    accepted_user_id: null,
    revoked_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await invitations.insertInvitation(trx, row);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: null,
      action: 'invitation.created',
      resource: 'invitation',
      resourceId: row.id,
      details: { email, expiresAt: row.expires_at },
    });
  });
  const base = deps.baseUrl.endsWith('/') ? deps.baseUrl.slice(0, -1) : deps.baseUrl;
  const url = `${base}/app/signup#invite=${token}`;
  return { ...view(row), token, url };
}

export async function listInvitations(deps: {
  readonly db: Kysely<Database>;
  readonly limit?: number;
}): Promise<InvitationView[]> {
  return (await invitations.listPendingInvitations(deps.db, isoNow(), deps.limit ?? 200)).map(view);
}

export async function revokeInvitation(deps: {
  readonly db: Kysely<Database>;
  readonly actor: Actor;
  readonly id: string;
}): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await invitations.revokeInvitation(trx, deps.id, isoNow()))) throw invitationNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId: null,
      action: 'invitation.revoked',
      resource: 'invitation',
      resourceId: deps.id,
    });
  });
}
