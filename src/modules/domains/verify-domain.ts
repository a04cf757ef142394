import { recordStatusChange } from './domain-status-history';
import type { Kysely } from 'kysely';
import type { Database, DomainStatus } from '../../db/schema';
import type { DnsResolver } from '../../shared/dns-resolver';
import type { Logger } from '../../shared/logger';
import type { Actor } from '../audit';
import { recordAudit, systemActor } from '../audit';
import type { ServiceHosts } from './dns-records';
import type { DomainState, Transition, VerificationTrigger } from './domain-status';
import { nextDomainState } from './domain-status';
import type { RequiredOutcome, VerificationResult } from './domain-verification';
import { checkCodes, requiredOutcome, runChecks, verificationResult } from './domain-verification';
import type { DomainRow } from './domains.repository';
import * as domains from './domains.repository';

export interface VerificationDeps {
  readonly db: Kysely<Database>;
  readonly resolver: DnsResolver;
  readonly hosts: ServiceHosts;
  /** DNS_RECHECK_INTERVAL_S. */
  readonly intervalS: number;
  readonly log: Logger;
  /** The clock; tests move it forward instead of waiting. */
  readonly now?: (() => Date) | undefined;
}

export interface VerificationAttempt {
  readonly result: VerificationResult;
  readonly outcome: RequiredOutcome;
  /** The domain's status after the attempt. */
  readonly status: DomainStatus;
  readonly regressed: boolean;
  /** SPF and DKIM passed, but another account holds the name verified: status left as it was. */
  readonly heldElsewhere: boolean;
}

export function domainState(row: DomainRow): DomainState {
  return {
    status: row.status,
    verifiedAt: row.verified_at,
    nextCheckAt: row.next_check_at,
    lookupFailures: row.lookup_failures,
  };
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/**
 * One verification attempt of one domain, from either trigger: queries DNS, moves
 * the domain's status (domain-status.ts), and writes the outcome with its audit
 * entry in one transaction. Logs `dns_verification` always and
 * `dns_verification_regressed` when a verified domain lost its status. An API
 * attempt is audited with the caller as actor; a re-check only when it changes
 * something (a regression), as the system.
 */
export async function attemptVerification(
  deps: VerificationDeps,
  row: DomainRow,
  trigger: VerificationTrigger,
  actor: Actor | null,
): Promise<VerificationAttempt> {
  const started = Date.now();
  const checks = await runChecks(
    deps.resolver,
    {
      domain: row.domain,
      dkimSelector: row.dkim_selector,
      dkimPublicKey: row.dkim_public_key,
      receiveEnabled: row.receive_enabled === 1,
      inboundLabel: row.inbound_label,
    },
    deps.hosts,
  );
  const outcome = requiredOutcome(checks);
  const result = verificationResult(row.domain, checks);
  const codes = checkCodes(checks);
  const now = deps.now?.() ?? new Date();
  const checkedAt = now.toISOString();
  const unchanged: Transition = { ...domainState(row), regressed: false };
  let next = nextDomainState(domainState(row), outcome, { trigger, now, intervalS: deps.intervalS });
  let heldElsewhere = false;
  let saved = false;

  const audit = (db: Kysely<Database>): Promise<void> =>
    recordAudit(db, {
      actor: actor ?? systemActor,
      userId: row.user_id,
      action: 'domain.verification_attempted',
      resource: 'domain',
      resourceId: row.id,
      details: {
        trigger,
        verified: result.verified,
        status: next.status,
        regressed: next.regressed,
        heldElsewhere,
        checks: codes,
      },
    });

  try {
    await deps.db.transaction().execute(async (trx) => {
      if (next.status === 'VERIFIED' && row.status !== 'VERIFIED') {
        heldElsewhere = await domains.isVerifiedElsewhere(trx, row.domain, row.id);
        if (heldElsewhere) next = unchanged;
      }
      saved = await domains.saveVerificationState(trx, row.id, row.status, next, checkedAt);
      if (saved && next.status !== row.status) {
        await recordStatusChange(trx, {
          domainId: row.id,
          userId: row.user_id,
          from: row.status,
          to: next.status,
          trigger,
          checks: codes,
          at: checkedAt,
        });
      }
      if (actor !== null || (saved && next.regressed)) await audit(trx);
    });
  } catch (err) {
    // PostgreSQL: two accounts verifying the same name at once; the unique index lets one win.
    if (!isUniqueViolation(err)) throw err;
    heldElsewhere = true;
    next = unchanged;
    saved = false;
    if (actor !== null) await audit(deps.db);
  }

  // Another attempt or a delete changed the row meanwhile: report what is stored now.
  const status = saved ? next.status : ((await domains.findDomainStatus(deps.db, row.id)) ?? row.status);
  const base = { domainId: row.id, userId: row.user_id, domain: row.domain, trigger };
  deps.log.info(
    {
      event: 'dns_verification',
      ...base,
      verified: result.verified,
      outcome,
      status,
      heldElsewhere,
      checks: codes,
      ms: Date.now() - started,
    },
    'dns verification',
  );
  const regressed = saved && next.regressed;
  if (regressed) {
    deps.log.warn(
      {
        event: 'dns_verification_regressed',
        ...base,
        reason: outcome === 'unknown' ? 'lookups_failing' : 'required_record_failed',
        checks: codes,
      },
      'verified domain lost verified status; sending stopped until it verifies again',
    );
  }
  return { result, outcome, status, regressed, heldElsewhere };
}
