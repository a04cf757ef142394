import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, RawMessagesTable } from '../db/schema';
import { enqueue } from '../jobs';
import type { BounceJobPayload } from '../mail/bounce-intake';
import type { InboundEnvelope, InboundIntakePayload, RawRef } from '../modules/inbound/intake-payload';
import { insertRawMessage } from '../modules/inbound/raw-message.repository';
import type { RawStore, StagedRaw } from '../modules/inbound/raw-store';
import type { InboundRoute } from './rcpt-verdict';

export interface RoutedRecipient {
  readonly address: string;
  readonly route: InboundRoute;
}

export type IntakeGroup =
  | { readonly kind: 'bounce'; readonly rcptTo: string[] }
  | {
      readonly kind: 'inbound';
      readonly domainId: string;
      readonly userId: string;
      readonly rcptTo: string[];
    };

/** One bounce group for every return-path recipient, one inbound group per receiving domain. */
export function planIntake(recipients: readonly RoutedRecipient[]): IntakeGroup[] {
  const bounce: string[] = [];
  const inbound = new Map<string, { domainId: string; userId: string; rcptTo: string[] }>();
  for (const r of recipients) {
    if (r.route.kind === 'return-path') {
      bounce.push(r.address);
      continue;
    }
    const group = inbound.get(r.route.domainId) ?? {
      domainId: r.route.domainId,
      userId: r.route.userId,
      rcptTo: [],
    };
    group.rcptTo.push(r.address);
    inbound.set(r.route.domainId, group);
  }
  const groups: IntakeGroup[] = [];
  if (bounce.length > 0) groups.push({ kind: 'bounce', rcptTo: bounce });
  for (const g of inbound.values()) groups.push({ kind: 'inbound', ...g });
  return groups;
}

/**
 * One job of an accepted message, as committed (plain data: it crosses to the writer
 * thread), with the raw row it names when the raw store is the database's.
 */
export type IntakeJob = (
  | {
      readonly queue: 'bounce-processing';
      readonly payload: BounceJobPayload;
      readonly dedupeKey: string;
    }
  | {
      readonly queue: 'inbound-processing';
      readonly payload: InboundIntakePayload;
      readonly dedupeKey: string;
    }
) & { readonly raw?: RawMessagesTable | undefined };

/**
 * Commits one message's jobs, all or none, and resolves once they are committed
 * (with the number created). In the MTA: the writer thread's group commit
 * (unit `mta.intake`, src/mta/mta-writer.ts), so the units of concurrent
 * SMTP sessions share one commit (one fsync), off Haraka's event loop.
 */
export type IntakeCommit = (jobs: readonly IntakeJob[]) => Promise<number>;

/**
 * Enqueues `jobs` in `trx`, each with its raw row when it has one (database raw store:
 * bytes and job in one commit); resolves with the number actually created (a replay adds
 * none, nor a second row).
 */
export async function enqueueIntakeJobs(trx: Kysely<Database>, jobs: readonly IntakeJob[]): Promise<number> {
  let created = 0;
  for (const { raw, ...job } of jobs) {
    if (!(await enqueue(trx, job)).created) continue;
    created++;
    if (raw !== undefined) await insertRawMessage(trx, raw);
  }
  return created;
}

/** The jobs of one message: one per group, each with its own raw copy. */
export function intakeJobs(
  groups: readonly IntakeGroup[],
  stored: readonly StagedRaw[],
  envelope: InboundEnvelope,
): IntakeJob[] {
  return groups.map((group, i) => {
    const raw = stored[i];
    if (raw === undefined) throw new Error('raw copy missing for a job');
    const ref: RawRef = { rawPath: raw.ref, sha256: raw.sha256, size: raw.size };
    const dedupeKey = `mx:${raw.ref}`;
    if (group.kind === 'bounce') {
      return {
        queue: 'bounce-processing',
        payload: { ...ref, ...envelope, rcptTo: group.rcptTo },
        dedupeKey,
        raw: raw.row,
      };
    }
    const payload: InboundIntakePayload = {
      ...ref,
      ...envelope,
      rcptTo: group.rcptTo,
      domainId: group.domainId,
      userId: group.userId,
    };
    return { queue: 'inbound-processing', payload, dedupeKey, raw: raw.row };
  });
}

export interface IntakeInput {
  readonly commit: IntakeCommit;
  /** Files on SQLite, `raw_messages` rows on PostgreSQL (src/modules/inbound/raw-store.ts). */
  readonly store: RawStore;
  /** The message as the client sent it; called once. */
  readonly message: () => Readable;
  readonly envelope: InboundEnvelope;
  readonly recipients: readonly RoutedRecipient[];
}

/** A second copy's source: the staged row's bytes, or the first file read back (streamed). */
function copyOf(first: StagedRaw): Buffer | Readable {
  return first.row !== undefined ? first.row.content : createReadStream(first.ref);
}

/**
 * Makes an accepted message durable before the MX answers 250 (issue 6, item 2):
 * one raw copy per job (each job owns its copy: whoever finishes with it deletes
 * it, no reference counting across job types), then every job committed in ONE
 * transaction (a unit of `commit`'s group commit, so concurrent messages may share
 * that commit). On SQLite the copies are files, each fsynced with its directory
 * before the commit (WAL, synchronous=FULL): a crash between the files and the
 * commit leaves unreferenced files, never a lost message. On PostgreSQL they are
 * `raw_messages` rows inserted in that same transaction: nothing is left by a crash.
 * Resolves with the number of jobs. On any failure the files written are removed
 * and the error is thrown: the caller answers 4xx and the client retries.
 */
export async function acceptInbound(input: IntakeInput): Promise<number> {
  const groups = planIntake(input.recipients);
  if (groups.length === 0) throw new Error('no routed recipient to accept the message for');
  const stored: StagedRaw[] = [];
  try {
    for (const _group of groups) {
      const first = stored[0];
      stored.push(await input.store.put(first === undefined ? input.message() : copyOf(first)));
    }
    await input.commit(intakeJobs(groups, stored, input.envelope));
  } catch (err) {
    await input.store.discard(stored);
    throw err;
  }
  return groups.length;
}
