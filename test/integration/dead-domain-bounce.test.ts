// Issue 22 item 1: a recipient domain that authoritatively takes no mail — NXDOMAIN, or a
// null MX (RFC 7505) — is a hard bounce of the address, suppressed like an unknown user, on the
// real MX path (no SMTP_RELAY) of the whole appliance: api, worker, mta, fake DNS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { waitUntil } from '../helpers/wait-until';

interface EmailBody {
  readonly status: string;
  readonly recipients: readonly { readonly email: string; readonly status: string }[];
}

interface SuppressionPage {
  readonly data: readonly {
    readonly email: string;
    readonly type: string;
    readonly sourceEmailId: string | null;
  }[];
}

describe('a domain that takes no mail hard-bounces its recipient (no relay, fake DNS)', () => {
  let sending: SendingAppliance;

  before(async () => {
    sending = await startSendingAppliance('deadmx.example.com', { SMTP_RELAY: '' });
    sending.dns.set('nullmx-e2e.test', 'MX', [{ exchange: '', priority: 0 }]);
  });
  after(async () => {
    await sending.stop();
  });

  for (const to of ['nobody@nxdomain-e2e.test', 'nobody@nullmx-e2e.test']) {
    it(`${to}: bounced at once, and suppressed with the message as its source`, async () => {
      const { app, apiKey } = sending;
      const sent = await app.api.post<{ id: string }>('/v1/emails', {
        token: apiKey,
        body: { from: 'a@deadmx.example.com', to, subject: 's', text: 't' },
      });
      assert.equal(sent.status, 202, sent.text);
      let email: EmailBody | undefined;
      await waitUntil(
        `${to} bounced (last: ${email?.status})`,
        async () => {
          email = (await app.api.get<EmailBody>(`/v1/emails/${sent.body.id}`, { token: apiKey })).body;
          return email.status === 'bounced';
        },
        30_000,
      );
      assert.deepEqual(
        email?.recipients.map((r) => r.status),
        ['bounced'],
      );
      const list = await app.api.get<SuppressionPage>(`/v1/suppressions?email=${encodeURIComponent(to)}`, {
        token: apiKey,
      });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.data.map((s) => [s.email, s.type, s.sourceEmailId]),
        [[to, 'hard_bounce', sent.body.id]],
      );
    });
  }
});
