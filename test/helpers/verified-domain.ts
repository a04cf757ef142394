import type { PublishedRecord } from './dns-fixtures';
import { publish } from './dns-fixtures';
import type { Appliance } from './appliance';
import type { FakeDns } from './dns-server';

export interface VerifiedDomain {
  readonly id: string;
  readonly domain: string;
  readonly records: PublishedRecord[];
}

/** Adds a domain through the API, publishes its records in the fake DNS and verifies it. */
export async function addVerifiedDomain(
  app: Appliance,
  dns: FakeDns,
  token: string,
  domain: string,
): Promise<VerifiedDomain> {
  const created = await app.api.post<{ id: string; records: PublishedRecord[] }>('/v1/domains', {
    token,
    body: { domain },
  });
  if (created.status !== 201) throw new Error(`add domain ${domain}: ${created.status} ${created.text}`);
  publish(dns, created.body.records);
  const verified = await app.api.post<{ verified: boolean }>(`/v1/domains/${created.body.id}/verify`, {
    token,
  });
  if (!verified.body.verified) throw new Error(`verify ${domain}: ${verified.text}`);
  return { id: created.body.id, domain, records: created.body.records };
}
