import type { StatusChangeView } from './domain-status-history';
import { listStatusChanges, recordStatusChange } from './domain-status-history';
import type { Kysely } from 'kysely';
import type { Database, DomainStatus } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import type { Sealer } from '../../shared/seal';
import type { Actor } from '../audit';
import { deleteTestEmailsOfDomain, domainHasHistory } from '../emails';
import { recordAudit } from '../audit';
import { generateDkimKeyPair, newDkimSelector } from './dkim-key';
import type { DnsRecord, ServiceHosts } from './dns-records';
import { domainRecords } from './dns-records';
import { checkSendingDomain } from './domain-name';
import type { VerificationResult } from './domain-verification';
import {
  domainAlreadyExists,
  domainNotFound,
  domainVerifiedElsewhere,
  invalidDomain,
  domainHasHistoryError,
} from './domains.errors';
import type { DomainRow, DomainSettings } from './domains.repository';
import * as domains from './domains.repository';
import type { VerificationDeps } from './verify-domain';
import { attemptVerification } from './verify-domain';

/** Spec, Domain. The DKIM private key is never part of it. */
export interface DomainView {
  readonly id: string;
  readonly domain: string;
  readonly status: DomainStatus;
  readonly records: readonly DnsRecord[];
  readonly receiveEnabled: boolean;
  readonly inboundLabel: string;
  readonly addresses: readonly string[];
  readonly restrictSenders: boolean;
  readonly unsubscribeLink: boolean;
  readonly verifiedAt: string | null;
  readonly lastCheckedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface DomainSettingsInput {
  readonly receiveEnabled?: boolean | undefined;
  readonly inboundLabel?: string | undefined;
  readonly addresses?: readonly string[] | undefined;
  readonly restrictSenders?: boolean | undefined;
  readonly unsubscribeLink?: boolean | undefined;
}

interface Deps {
  readonly db: Kysely<Database>;
  readonly userId: string;
}

/** The appliance's own names: what a customer may not add, and what the records point at. */
export interface DomainHosts extends ServiceHosts {
  readonly mailHostname: string;
}

export function domainView(row: DomainRow, hosts: ServiceHosts): DomainView {
  const receiveEnabled = row.receive_enabled === 1;
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    records: domainRecords(
      {
        domain: row.domain,
        dkimSelector: row.dkim_selector,
        dkimPublicKey: row.dkim_public_key,
        receiveEnabled,
        inboundLabel: row.inbound_label,
      },
      hosts,
    ),
    receiveEnabled,
    inboundLabel: row.inbound_label,
    addresses: JSON.parse(row.addresses) as string[],
    restrictSenders: row.restrict_senders === 1,
    unsubscribeLink: row.unsubscribe_link === 1,
    verifiedAt: row.verified_at,
    lastCheckedAt: row.last_checked_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** The context a DKIM key is sealed under: a sealed key copied to another row does not open. */
export function dkimSealContext(domainId: string): string {
  return `dkim:${domainId}`;
}

export async function createDomain(
  deps: Deps & { sealer: Sealer; hosts: DomainHosts; actor: Actor; input: { domain: string } },
): Promise<DomainView> {
  const { db, userId, hosts } = deps;
  const own = [hosts.mailHostname, hosts.mxHost, hosts.bounceHost, hosts.spfIncludeHost];
  const name = checkSendingDomain(deps.input.domain, own);
  if (!name.ok) throw invalidDomain(`${deps.input.domain.trim()}: ${name.reason}`, { reason: name.reason });
  // Checked before the key is generated (the costly part); the unique index still decides races.
  if (await domains.findDomainByName(db, userId, name.domain)) throw domainAlreadyExists();

  const key = await generateDkimKeyPair();
  const id = newId('dom');
  const now = isoNow();
  const row: DomainRow = {
    id,
    user_id: userId,
    domain: name.domain,
    status: 'PENDING',
    dkim_selector: newDkimSelector(),
    dkim_public_key: key.publicKey,
    dkim_private_key_encrypted: deps.sealer.seal(key.privateKeyPem, dkimSealContext(id)),
    receive_enabled: 0,
    inbound_label: 'inbox',
    addresses: '[]',
    restrict_senders: 0,
    unsubscribe_link: 0,
    verified_at: null,
    last_checked_at: null,
    next_check_at: null,
    lookup_failures: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.transaction().execute(async (trx) => {
      await domains.insertDomain(trx, row);
      await recordStatusChange(trx, {
        domainId: id,
        userId,
        from: null,
        to: 'PENDING',
        trigger: 'created',
        checks: null,
        at: now,
      });
      await recordAudit(trx, {
        actor: deps.actor,
        userId,
        action: 'domain.created',
        resource: 'domain',
        resourceId: id,
        details: { domain: row.domain, dkimSelector: row.dkim_selector },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw domainAlreadyExists();
    throw err;
  }
  return domainView(row, hosts);
}

export async function listDomainViews(deps: Deps & { hosts: ServiceHosts }): Promise<DomainView[]> {
  return (await domains.listDomains(deps.db, deps.userId)).map((r) => domainView(r, deps.hosts));
}

async function requireDomain(db: Kysely<Database>, userId: string, domainId: string): Promise<DomainRow> {
  const row = await domains.findDomain(db, userId, domainId);
  if (!row) throw domainNotFound();
  return row;
}

/** `GET /v1/domains/{id}/status-history`: the domain's status changes, newest first. */
export async function domainStatusHistory(
  deps: Deps & { domainId: string },
): Promise<{ data: StatusChangeView[] }> {
  await requireDomain(deps.db, deps.userId, deps.domainId);
  return { data: await listStatusChanges(deps.db, deps.userId, deps.domainId) };
}

export async function getDomain(deps: Deps & { hosts: ServiceHosts; domainId: string }): Promise<DomainView> {
  return domainView(await requireDomain(deps.db, deps.userId, deps.domainId), deps.hosts);
}

export async function updateDomain(
  deps: Deps & { hosts: ServiceHosts; actor: Actor; domainId: string; input: DomainSettingsInput },
): Promise<DomainView> {
  const { db, userId, domainId, input } = deps;
  await requireDomain(db, userId, domainId);
  const settings: DomainSettings = {};
  if (input.receiveEnabled !== undefined) settings.receive_enabled = input.receiveEnabled ? 1 : 0;
  if (input.inboundLabel !== undefined) settings.inbound_label = input.inboundLabel;
  if (input.addresses !== undefined) settings.addresses = JSON.stringify(input.addresses);
  if (input.restrictSenders !== undefined) settings.restrict_senders = input.restrictSenders ? 1 : 0;
  if (input.unsubscribeLink !== undefined) settings.unsubscribe_link = input.unsubscribeLink ? 1 : 0;
  await db.transaction().execute(async (trx) => {
    // updated_at moves on every change: the MTA's cached view of domains refreshes from it.
    await domains.updateDomainSettings(trx, userId, domainId, settings, isoNow());
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'domain.updated',
      resource: 'domain',
      resourceId: domainId,
      details: { ...input },
    });
  });
  return domainView(await requireDomain(db, userId, domainId), deps.hosts);
}

/**
 * Deletes the domain and its key, and its test-mode messages with it; 409 DOMAIN_HAS_HISTORY
 * once it has sent live mail (its messages keep pointing at it).
 */
export async function deleteDomain(
  deps: Deps & { actor: Actor; domainId: string },
): Promise<{ id: string; domain: string; deleted: true }> {
  const { db, userId, domainId } = deps;
  const row = await requireDomain(db, userId, domainId);
  await db.transaction().execute(async (trx) => {
    if (await domainHasHistory(trx, domainId)) {
      throw domainHasHistoryError(
        `${row.domain} has sent live mail: its messages, their timelines and statistics refer to it, so it stays. ` +
          'To stop sending from it, revoke the API keys that send from it and remove its DKIM and SPF records ' +
          '(the next re-check then takes its verification away and it refuses mail)',
        { domainId },
      );
    }
    const testEmailsDeleted = await deleteTestEmailsOfDomain(trx, userId, domainId);
    if (!(await domains.deleteDomain(trx, userId, domainId))) throw domainNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'domain.deleted',
      resource: 'domain',
      resourceId: domainId,
      details: { domain: row.domain, status: row.status, testEmailsDeleted },
    });
  });
  return { id: row.id, domain: row.domain, deleted: true };
}

/** `POST /v1/domains/{id}/verify`: the spec's result plus the domain's `status` after the attempt. */
export async function verifyDomain(
  deps: VerificationDeps & { userId: string; actor: Actor; domainId: string },
): Promise<VerificationResult & { status: DomainStatus }> {
  const row = await requireDomain(deps.db, deps.userId, deps.domainId);
  const attempt = await attemptVerification(deps, row, 'api', deps.actor);
  if (attempt.heldElsewhere) throw domainVerifiedElsewhere(undefined, { verification: attempt.result });
  return { ...attempt.result, status: attempt.status };
}
