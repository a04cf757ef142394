// Issue 17, finding 10 (SMTP side): replies echoed a whole 2 MB From value back to
// the client, and the MX refused postmaster@ at its receiving domains although
// RFC 5321 §4.5.1 requires accepting it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatReply, reject } from '../../src/mta/smtp-verdict';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { compose, sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';
import { SmtpClient } from '../helpers/smtp-client';

describe('verdict texts are bounded and one line', () => {
  it('clips an echoed value and keeps the reply within RFC 5321’s 512 octets', () => {
    const verdict = reject(550, '5.7.1', `From is not a usable address: ${'x'.repeat(2_000_000)}`);
    assert.ok(`${formatReply(verdict)}\r\n`.length <= 512, String(formatReply(verdict).length));
    assert.match(verdict.text, /\.\.\.$/);
  });

  it('never lets an echoed CR or LF start another reply line', () => {
    const verdict = reject(550, '5.1.1', '<a\r\n250 ok>: no such user here');
    assert.doesNotMatch(verdict.text, /[\r\n]/);
  });
});

describe('the appliance: short replies and postmaster', () => {
  const DOMAIN = 'hygiene-sec.example.com';
  const HOST = `inbox.${DOMAIN}`;
  let s: SendingAppliance;

  before(async () => {
    s = await startSendingAppliance(DOMAIN, { SUBMISSION_ALLOW_PLAINTEXT: 'true' });
    // Receiving restricted to one address: postmaster must still be accepted.
    await setReceiving(s.app, s.token, s.domain.id, { receiveEnabled: true, addresses: ['sales'] });
  });
  after(async () => {
    await s.stop();
  });

  async function rcptCode(address: string): Promise<number> {
    const { client } = await SmtpClient.connect(s.app.ports.smtp);
    try {
      await client.command('EHLO client.example.org');
      await client.command('MAIL FROM:<sender@example.org>');
      return (await client.command(`RCPT TO:<${address}>`)).code;
    } finally {
      client.close();
    }
  }

  it('accepts postmaster@ (any case) at a receiving host that lists other addresses, and delivers it to the account', async () => {
    // The MX reloads its view of receiving domains every few seconds.
    const deadline = Date.now() + 10_000;
    while ((await rcptCode(`sales@${HOST}`)) !== 250) {
      if (Date.now() > deadline) throw new Error('receiving never enabled');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(await rcptCode(`postmaster@${HOST}`), 250);
    assert.equal(await rcptCode(`PostMaster@${HOST}`), 250);
    assert.equal(await rcptCode(`other@${HOST}`), 550);
    assert.equal(await rcptCode('postmaster@not-ours.example.org'), 550);

    const raw = await compose({
      from: 'abuse-desk@example.org',
      to: `postmaster@${HOST}`,
      subject: 'complaint for the postmaster',
      text: 'hello',
    });
    await sendRaw(s.app, raw, { from: 'abuse-desk@example.org', to: [`Postmaster@${HOST}`] });
    const found = await waitForInbound(s.app, s.token, (m) => m.subject === 'complaint for the postmaster');
    assert.equal(found.domainId, s.domain.id);
  });

  it('answers a 2 MB From over submission with a short reply', async () => {
    const auth = Buffer.from(`\0user\0${s.apiKey}`).toString('base64');
    const { client } = await SmtpClient.connect(s.app.ports.submission);
    try {
      await client.command('EHLO client.example.org');
      assert.equal((await client.command(`AUTH PLAIN ${auth}`)).code, 235);
      assert.equal((await client.command(`MAIL FROM:<news@${DOMAIN}>`)).code, 250);
      assert.equal((await client.command('RCPT TO:<to@example.org>')).code, 250);
      assert.equal((await client.command('DATA')).code, 354);
      const reply = await client.raw(
        `From: ${'x'.repeat(2 * 1024 * 1024)}\r\nTo: to@example.org\r\nSubject: s\r\n\r\nbody\r\n.\r\n`,
      );
      assert.ok(reply.code >= 500 && reply.code < 600, reply.raw.slice(0, 200));
      assert.ok(reply.raw.length <= 510, `reply of ${reply.raw.length} characters`);
    } finally {
      client.close();
    }
  });
});
