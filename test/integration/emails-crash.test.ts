import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { startDnsServer } from '../helpers/dns-server';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';

const DOMAIN = 'crash.example.com';
const BURST = 30;

for (const sender of ['haraka', 'worker'] as const)
  describe(`durability of accepted sends (OUTBOUND_SENDER=${sender})`, () => {
    it('a SIGKILL of the whole appliance right after a burst of 202s loses none of them', async () => {
      const dns = await startDnsServer();
      const sink = await startSmtpSink();
      const env = {
        DNS_SERVERS: dns.address,
        SMTP_RELAY: sink.address,
        RATE_LIMIT_EMAILS_PER_HOUR: '10000',
        NEW_ACCOUNT_EMAILS_PER_HOUR: '10000',
        OUTBOUND_SENDER: sender,
      };
      let app: Appliance = await startAppliance({ env });
      try {
        const account = await app.api.registerWithKey();
        await addVerifiedDomain(app, dns, account.token, DOMAIN);
        const accepted = await Promise.all(
          Array.from({ length: BURST }, async (_, i) => {
            const res = await app.api.post<{ id: string }>('/v1/emails', {
              token: account.apiKey,
              body: { from: `a@${DOMAIN}`, to: `r${i}@dest.test`, subject: `m${i}`, text: 'x' },
            });
            assert.equal(res.status, 202, res.text);
            return res.body.id;
          }),
        );
        // Power cut: every process of the appliance at once, whatever it was doing.
        await app.kill();
        app = await startAppliance({ env, dataDir: app.dataDir });

        const deadline = Date.now() + 90_000;
        let statuses: string[] = [];
        while (Date.now() < deadline) {
          statuses = await Promise.all(
            accepted.map(
              async (id) =>
                (await app.api.get<{ status: string }>(`/v1/emails/${id}`, { token: account.apiKey })).body
                  .status,
            ),
          );
          if (statuses.every((s) => s === 'delivered')) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        assert.deepEqual(
          statuses.filter((s) => s !== 'delivered'),
          [],
          `not delivered after restart: ${JSON.stringify(statuses)}`,
        );
        const delivered = new Set(sink.messages.flatMap((m) => m.rcptTo));
        for (let i = 0; i < BURST; i++)
          assert.ok(delivered.has(`r${i}@dest.test`), `r${i} never reached the sink`);
        // At least once: a transaction whose 250 came just before the kill, not yet committed, is
        // sent again. Reported, for the design's duplicate count (docs/operations.md).
        const copies = sink.messages.flatMap((m) => m.rcptTo).length;
        console.log(`${sender} sender: ${copies - BURST} duplicate(s) of ${BURST} after the kill`);
      } finally {
        await app.kill();
        await sink.close();
        await dns.close();
      }
    });
  });
