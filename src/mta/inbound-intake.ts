import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { enqueue } from '../jobs';
import type { BounceJobPayload } from '../modules/bounces/intake-payload';
import type { InboundEnvelope, InboundIntakePayload, RawRef } from '../modules/inbound/intake-payload';
import type { StoredRaw } from '../modules/inbound/raw-store';
import { deleteRawMessage, storeRawMessage } from '../modules/inbound/raw-store';
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

/** One job of an accepted message, as committed (plain data: it crosses to the writer thread). */
export type IntakeJob =
  | {
      readonly queue: 'bounce-processing';
      readonly payload: BounceJobPayload;
      readonly dedupeKey: string;
    }
  | {
      readonly queue: 'inbound-processing';
      readonly payload: InboundIntakePayload;
      readonly dedupeKey: string;
    };

/**
 * Commits one message's jobs, all or none, and resolves once they are committed
 * (with the number created). In the MTA: the writer thread's group commit
 * (`threadedIntakeCommit`, src/mta/outcome-writer.ts), so the units of concurrent
 * SMTP sessions share one commit (one fsync), off Haraka's event loop.
 */
export type IntakeCommit = (jobs: readonly IntakeJob[]) => Promise<number>;

/** Enqueues `jobs` in `trx`; resolves with the number actually created (a replay adds none). */
export async function enqueueIntakeJobs(trx: Kysely<Database>, jobs: readonly IntakeJob[]): Promise<number> {
  let created = 0;
  for (const job of jobs) if ((await enqueue(trx, job)).created) created++;
  return created;
}

/** The jobs of one message: one per group, each with its own raw file. */
export function intakeJobs(
  groups: readonly IntakeGroup[],
  stored: readonly StoredRaw[],
  envelope: InboundEnvelope,
): IntakeJob[] {
  return groups.map((group, i) => {
    const raw = stored[i];
    if (raw === undefined) throw new Error('raw file missing for a job');
    const ref: RawRef = { rawPath: raw.path, sha256: raw.sha256, size: raw.size };
    const dedupeKey = `mx:${raw.path}`;
    if (group.kind === 'bounce') {
      return {
        queue: 'bounce-processing',
        payload: { ...ref, ...envelope, rcptTo: group.rcptTo },
        dedupeKey,
      };
    }
    const payload: InboundIntakePayload = {
      ...ref,
      ...envelope,
      rcptTo: group.rcptTo,
      domainId: group.domainId,
      userId: group.userId,
    };
    return { queue: 'inbound-processing', payload, dedupeKey };
  });
}

export interface IntakeInput {
  readonly commit: IntakeCommit;
  readonly dataDir: string;
  /** The message as the client sent it; called once. */
  readonly message: () => Readable;
  readonly envelope: InboundEnvelope;
  readonly recipients: readonly RoutedRecipient[];
}

/**
 * Makes an accepted message durable before the MX answers 250 (issue 6, item 2):
 * one raw file per job (each job owns its file: whoever finishes with it deletes
 * it, no reference counting across job types), each fsynced with its directory,
 * then every job committed in ONE transaction (WAL, synchronous=FULL; a unit of
 * `commit`'s group commit, so concurrent messages may share that commit). Resolves
 * with the number of jobs. On any failure the files written are removed and the
 * error is thrown: the caller answers 4xx and the client retries. A crash between
 * the files and the commit leaves unreferenced files, never a lost message.
 */
export async function acceptInbound(input: IntakeInput): Promise<number> {
  const groups = planIntake(input.recipients);
  if (groups.length === 0) throw new Error('no routed recipient to accept the message for');
  const stored: StoredRaw[] = [];
  try {
    for (const _group of groups) {
      const first = stored[0];
      const source = first === undefined ? input.message() : createReadStream(first.path);
      stored.push(await storeRawMessage(input.dataDir, source));
    }
    await input.commit(intakeJobs(groups, stored, input.envelope));
  } catch (err) {
    await Promise.all(stored.map((s) => deleteRawMessage(s.path).catch(() => undefined)));
    throw err;
  }
  return groups.length;
}
