// Issue 20 item 3: Resend's SMTP convention (user `resend`, password = the API key) on the
// submission port, with a real SMTP client against Haraka; a key's domain restriction
// (item 2) holds over SMTP too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import type { Appliance } from '../helpers/appliance';
import { verpAddress } from '../../src/mail/verp-address';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

interface SmtpError {
  responseCode?: number;
  response?: string;
}

describe('SMTP submission with Resend’s convention: user resend, password the API key', () => {
  let dns: FakeDns;
  let sink: SmtpSink;
  let app: Appliance;
  let session: string;
  let apiKey: string;
  let domainA: string;

  before(async () => {
    dns = await startDnsServer();
    sink = await startSmtpSink();
    app = await startAppliance({
      env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address, SUBMISSION_ALLOW_PLAINTEXT: 'true' },
    });
    ({ token: session, apiKey } = await app.api.registerWithKey());
    domainA = (await addVerifiedDomain(app, dns, session, 'a.smtp.example.com')).id;
    await addVerifiedDomain(app, dns, session, 'b.smtp.example.com');
  });
  after(async () => {
    await app.stop();
    await sink.close();
    await dns.close();
  });

  const transport = (pass: string) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: app.ports.submission,
      secure: false,
      ignoreTLS: true,
      auth: { user: 'resend', pass },
    });
  const queuedId = (response: string) => /Queued as (email_[A-Za-z0-9_-]+)/.exec(response)?.[1];

  it('accepts and delivers a message authenticated as resend / re_live_…', async () => {
    const info = await transport(apiKey).sendMail({
      from: 'App <app@a.smtp.example.com>',
      to: 'user@dest.test',
      subject: 'Via the Resend convention',
      text: 'Hello',
    });
    const id = queuedId(info.response);
    assert.ok(id, info.response);
    await waitUntil(
      'delivered to the sink',
      () => sink.messages.some((m) => m.mailFrom === verpAddress(id, 'a.smtp.example.com')),
      40_000,
    );
  });

  it('a sending key held to a domain submits from it, and gets 550 5.7.1 from another', async () => {
    const held = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: session,
      body: { name: 'smtp', permission: 'sending_access', domainId: domainA },
    });
    assert.equal(held.status, 201, held.text);
    const ok = await transport(held.body.token).sendMail({
      from: 'app@a.smtp.example.com',
      to: 'x@dest.test',
      text: 'a',
    });
    assert.ok(queuedId(ok.response), ok.response);
    await assert.rejects(
      transport(held.body.token).sendMail({ from: 'app@b.smtp.example.com', to: 'x@dest.test', text: 'b' }),
      (err: SmtpError) => {
        assert.equal(err.responseCode, 550, String(err.response));
        assert.match(String(err.response), /5\.7\.1.*b\.smtp\.example\.com/);
        return true;
      },
    );
  });

  it('refuses resend with a password that is no live key (535)', async () => {
    await assert.rejects(
      transport('re_live_not-a-key').sendMail({
        from: 'app@a.smtp.example.com',
        to: 'x@dest.test',
        text: 'x',
      }),
      (err: SmtpError) => {
        assert.equal(err.responseCode, 535, String(err.response));
        return true;
      },
    );
  });
});
