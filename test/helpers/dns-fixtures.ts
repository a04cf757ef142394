import type { FakeDns } from './dns-server';

/** A record as the API returns it (docs/domains.md). */
export interface PublishedRecord {
  readonly purpose: string;
  readonly type: string;
  readonly name: string;
  readonly value: string;
  readonly priority?: number;
}

/**
 * Publishes records in the fake DNS exactly as a customer would paste them. Long
 * TXT values are split into 255-byte strings by the server, as real zones do.
 */
export function publish(
  dns: FakeDns,
  records: readonly PublishedRecord[],
  except: readonly string[] = [],
): void {
  for (const r of records) {
    if (except.includes(r.purpose)) continue;
    if (r.type === 'TXT') dns.add(r.name, 'TXT', r.value);
    else if (r.type === 'CNAME') dns.set(r.name, 'CNAME', [r.value]);
    else if (r.type === 'MX') dns.add(r.name, 'MX', { exchange: r.value, priority: r.priority ?? 10 });
    else throw new Error(`cannot publish ${r.type}`);
  }
}

export function recordOf<R extends PublishedRecord>(records: readonly R[], purpose: string): R {
  const r = records.find((x) => x.purpose === purpose);
  if (!r) throw new Error(`no ${purpose} record`);
  return r;
}
