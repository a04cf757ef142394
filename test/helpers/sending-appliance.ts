import type { Appliance } from './appliance';
import { startAppliance } from './appliance';
import type { FakeDns } from './dns-server';
import { startDnsServer } from './dns-server';
import type { SmtpSink } from './smtp-sink';
import { startSmtpSink } from './smtp-sink';
import type { VerifiedDomain } from './verified-domain';
import { addVerifiedDomain } from './verified-domain';

/** A whole appliance that can send: fake DNS, an SMTP sink as SMTP_RELAY, one account with a key and a verified domain. */
export interface SendingAppliance {
  readonly dns: FakeDns;
  readonly sink: SmtpSink;
  readonly app: Appliance;
  readonly apiKey: string;
  /** The account's session token. */
  readonly token: string;
  readonly domain: VerifiedDomain;
  /** Stops the appliance, then the sink and the DNS server. */
  stop(): Promise<void>;
}

/** Starts it; `env` adds to (or overrides) DNS_SERVERS and SMTP_RELAY, which point at the fakes. */
export async function startSendingAppliance(
  domain: string,
  env: Record<string, string> = {},
): Promise<SendingAppliance> {
  const dns = await startDnsServer();
  const sink = await startSmtpSink();
  const app = await startAppliance({
    env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address, ...env },
  });
  const account = await app.api.registerWithKey();
  const verified = await addVerifiedDomain(app, dns, account.token, domain);
  return {
    dns,
    sink,
    app,
    apiKey: account.apiKey,
    token: account.token,
    domain: verified,
    async stop() {
      await app.stop();
      await sink.close();
      await dns.close();
    },
  };
}
