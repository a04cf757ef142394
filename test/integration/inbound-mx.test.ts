// The MX's acceptance rules on the whole appliance: who we receive for (addresses, apex label,
// return paths, changes within seconds), the relay battery, smuggling and size on a real
// receiving address, and durability: a SIGKILL right after 250s loses nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { compose, sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';
import { SmtpClient } from '../helpers/smtp-client';

const MAX_BYTES = 200_000;

async function rcptCodes(app: Appliance, recipients: readonly string[]): Promise<number[]> {
  const { client } = await SmtpClient.connect(app.ports.smtp);
  try {
    await client.command('EHLO client.example.org');
    await client.command('MAIL FROM:<sender@example.org>');
    const codes: number[] = [];
    for (const r of recipients) codes.push((await client.command(`RCPT TO:<${r}>`)).code);
    return codes;
  } finally {
    client.close();
  }
}

/** Polls until RCPT TO:<address> gets `code` (the MX reloads its view every 2 s). */
async function waitForRcpt(
  app: Appliance,
  address: string,
  code: number,
  timeoutMs = 6_000,
): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await rcptCodes(app, [address]))[0] === code) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`RCPT TO:<${address}> never answered ${code}`);
}

describe('MX acceptance on the whole appliance', () => {
  let dns: FakeDns;
  let app: Appliance;
  let token: string;
  let domainId: string;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      env: { DNS_SERVERS: dns.address, EMAIL_MAX_SIZE_BYTES: String(MAX_BYTES) },
    });
    ({ token } = await app.api.register());
    domainId = (await addVerifiedDomain(app, dns, token, 'filter.example.com')).id;
    await setReceiving(app, token, domainId, { receiveEnabled: true, addresses: ['sales', 'support'] });
    await waitForRcpt(app, 'sales@inbox.filter.example.com', 250);
  });

  after(async () => {
    await app.stop();
    await dns.close();
  });

  it('accepts listed local parts, 550 for others, all local parts at the return-path host', async () => {
    const codes = await rcptCodes(app, [
      'sales@inbox.filter.example.com',
      'SUPPORT@INBOX.filter.example.com',
      'other@inbox.filter.example.com',
      'bounce+email_123@bounce.filter.example.com',
      'anything@bounce.filter.example.com',
      'sales@filter.example.com',
      'sales@elsewhere.example.com',
    ]);
    assert.deepEqual(codes, [250, 250, 550, 250, 250, 550, 550]);
  });

  it('refuses every relay form with 5xx, also at a receiving host', async () => {
    const host = 'inbox.filter.example.com';
    const battery = [
      `sales%victim.example@${host}`,
      `victim.example!sales@${host}`,
      `"sales@victim.example"@${host}`,
      `"sales%victim.example"@${host}`,
      `@${host}:sales@victim.example`,
      `@${host},@relay.example:sales@victim.example`,
      'victim.example!sales',
      'sales@victim.example',
      `sales@[127.0.0.1]`,
      'postmaster',
    ];
    const codes = await rcptCodes(app, battery);
    codes.forEach((code, i) => assert.ok(code >= 500 && code < 600, `${battery[i]}: ${code}`));
  });

  it('sees addresses, the apex label and receiving switched off within a few seconds', async () => {
    await setReceiving(app, token, domainId, { addresses: [] });
    const opened = await waitForRcpt(app, 'other@inbox.filter.example.com', 250);
    await setReceiving(app, token, domainId, { inboundLabel: '@' });
    const apex = await waitForRcpt(app, 'other@filter.example.com', 250);
    assert.equal((await rcptCodes(app, ['other@inbox.filter.example.com']))[0], 550);
    await setReceiving(app, token, domainId, { receiveEnabled: false });
    const closed = await waitForRcpt(app, 'other@filter.example.com', 550);
    for (const ms of [opened, apex, closed]) assert.ok(ms < 5_000, `took ${ms} ms`);
    // Return paths stay open: they do not depend on receiving.
    assert.equal((await rcptCodes(app, ['x@bounce.filter.example.com']))[0], 250);
    await setReceiving(app, token, domainId, { receiveEnabled: true });
    await waitForRcpt(app, 'other@filter.example.com', 250);
  });

  it('refuses smuggling and bare CR on a real receiving address; nothing is stored', async () => {
    for (const body of ['hello\r.\r\n', 'bare\rcr\r\n']) {
      const { client } = await SmtpClient.connect(app.ports.smtp);
      await client.command('EHLO client.example.org');
      await client.command('MAIL FROM:<s@example.org>');
      assert.equal((await client.command('RCPT TO:<smuggle@filter.example.com>')).code, 250);
      assert.equal((await client.command('DATA')).code, 354);
      const smuggled = `Subject: smuggled\r\n\r\n${body}MAIL FROM:<evil@example.org>\r\nRCPT TO:<evil@filter.example.com>\r\nDATA\r\nevil\r\n.\r\n`;
      const reply = await client.raw(smuggled);
      assert.equal(reply.code, 550, reply.raw);
      client.close();
    }
    const list = await app.api.get<{ data: { subject: string }[] }>('/v1/inbound', { token });
    assert.ok(!list.body.data.some((m) => m.subject === 'smuggled'));
  });

  it('answers 552 above EMAIL_MAX_SIZE_BYTES, in MAIL SIZE= and at end of data', async () => {
    const { client } = await SmtpClient.connect(app.ports.smtp);
    await client.command('EHLO client.example.org');
    assert.equal((await client.command(`MAIL FROM:<s@example.org> SIZE=${MAX_BYTES + 1}`)).code, 552);
    client.close();
    const big = await compose({
      from: 's@example.org',
      to: 'big@filter.example.com',
      subject: 'big',
      text: 'x'.repeat(MAX_BYTES),
    });
    await assert.rejects(sendRaw(app, big, { from: 's@example.org', to: ['big@filter.example.com'] }), /552/);
  });

  it('a SIGKILL right after the 250s loses no accepted message', async () => {
    // No worker: the accepted messages exist only as raw files and committed jobs when the power goes.
    const env = { DNS_SERVERS: dns.address, EMAIL_MAX_SIZE_BYTES: String(MAX_BYTES) };
    await app.kill();
    app = await startAppliance({ dataDir: app.dataDir, env, processes: ['api', 'mta'] });
    await waitForRcpt(app, 'keep@filter.example.com', 250);
    const subjects = Array.from({ length: 5 }, (_, i) => `durable ${i}`);
    for (const subject of subjects) {
      const raw = await compose({
        from: 's@example.org',
        to: 'keep@filter.example.com',
        subject,
        text: subject,
      });
      const info = await sendRaw(app, raw, { from: 's@example.org', to: ['keep@filter.example.com'] });
      assert.match(info.response, /^250 /);
    }
    await app.kill();
    app = await startAppliance({ dataDir: app.dataDir, env });
    for (const subject of subjects) {
      await waitForInbound(app, token, (m) => m.subject === subject, 30_000);
    }
  });
});
