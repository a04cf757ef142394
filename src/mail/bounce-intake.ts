import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema';
import type { EnqueueResult } from '../jobs/enqueue';
import { enqueue } from '../jobs/enqueue';

export const BOUNCE_QUEUE = 'bounce-processing';

/**
 * The payload of a `bounce-processing` job: one stored report. Written by the MX
 * queue hook for mail to a return-path host (issue 6) and by `POST /internal/bounces`,
 * with the raw copy durable (`inbound/raw-store.ts`: a file before the job commits, or on
 * PostgreSQL a row in the job's own transaction).
 */
export interface BounceJobPayload {
  /** The raw report: a file path, or `db:<raw_messages.id>` on PostgreSQL (`inbound/raw-store.ts`). */
  readonly rawPath: string;
  /** Hex SHA-256 of the raw bytes as stored. */
  readonly sha256: string;
  readonly size: number;
  /** Envelope sender; null for the internal endpoint (and `<>` bounces may give ""). */
  readonly mailFrom: string | null;
  /** Envelope recipients at return-path hosts (`bounce+<email_id>@bounce.<domain>`); empty for the endpoint. */
  readonly rcptTo: readonly string[];
  readonly remoteIp: string | null;
  readonly helo: string | null;
  readonly receivedAt: string;
}

const payloadSchema = z.object({
  rawPath: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/i),
  size: z.number().int().nonnegative(),
  mailFrom: z.string().nullable().optional(),
  rcptTo: z.array(z.string()).optional(),
  remoteIp: z.string().nullable().optional(),
  helo: z.string().nullable().optional(),
  receivedAt: z.string().optional(),
});

/** Validates a job payload read back from the database; undefined when it cannot be used. */
export function parseBouncePayload(value: unknown): BounceJobPayload | undefined {
  const parsed = payloadSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const p = parsed.data;
  return {
    rawPath: p.rawPath,
    sha256: p.sha256.toLowerCase(),
    size: p.size,
    mailFrom: p.mailFrom ?? null,
    rcptTo: p.rcptTo ?? [],
    remoteIp: p.remoteIp ?? null,
    helo: p.helo ?? null,
    receivedAt: p.receivedAt ?? new Date().toISOString(),
  };
}

/**
 * Where a report came from: the MX names its envelope recipients, the endpoint none
 * (an MTA pipe or an operator posting a report by hand).
 */
export function reportSource(p: Pick<BounceJobPayload, 'rcptTo' | 'mailFrom'>): 'mx' | 'api' {
  return p.rcptTo.length > 0 || p.mailFrom !== null ? 'mx' : 'api';
}

/**
 * Enqueues the processing of one stored report. Attempts cover a busy database; a
 * report that cannot be read is failed permanently by the handler instead.
 */
export async function enqueueBounceReport(
  db: Kysely<Database>,
  payload: BounceJobPayload,
): Promise<EnqueueResult> {
  return enqueue(db, { queue: BOUNCE_QUEUE, payload, maxAttempts: 5 });
}
