// Bounce and complaint intake through the whole appliance (issue 5, items 4–6): a message is
// sent and delivered to the sink, then its DSN or ARF report comes back through
// POST /internal/bounces or over SMTP to the MX, and the worker's bounce-processing applies it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { verpAddress } from '../../src/mail/verp-address';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { buildArf, buildDsn } from '../helpers/intake-reports';

interface EmailView {
  id: string;
  status: string;
  recipients: { email: string; status: string; smtpResponse: string | null }[];
  events: { type: string; message: string | null }[];
}

const DOMAIN = 'shop.example.com';

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  lines: string[],
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what} not reached\n${lines.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('bounce intake end to end', () => {
  let sending: SendingAppliance;
  let app: Appliance;
  let apiKey: string;

  before(async () => {
    sending = await startSendingAppliance(DOMAIN, {
      RATE_LIMIT_EMAILS_PER_HOUR: '1000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
    });
    ({ app, apiKey } = sending);
  });
  after(async () => {
    await sending.stop();
  });

  async function send(to: string): Promise<{ status: number; id: string; code?: string }> {
    const res = await app.api.post<{ id: string; error?: { code: string } }>('/v1/emails', {
      token: apiKey,
      body: { from: `Shop <orders@${DOMAIN}>`, to, subject: 'Your order', text: 'Thanks' },
    });
    return { status: res.status, id: res.body.id, ...(res.body.error ? { code: res.body.error.code } : {}) };
  }

  async function get(id: string): Promise<EmailView> {
    return (await app.api.get<EmailView>(`/v1/emails/${id}`, { token: apiKey })).body;
  }

  async function waitStatus(id: string, status: string): Promise<EmailView> {
    return until(
      `${id} ${status}`,
      async () => {
        const view = await get(id);
        return view.status === status ? view : undefined;
      },
      app.lines,
    );
  }

  async function delivered(to: string): Promise<string> {
    const sent = await send(to);
    assert.equal(sent.status, 202);
    await waitStatus(sent.id, 'delivered');
    return sent.id;
  }

  function postReport(raw: string, token = app.internalToken) {
    return app.api.post<{ id: string; status: string }>('/internal/bounces', {
      headers: { 'x-internal-token': token, 'content-type': 'message/rfc822' },
      body: raw,
    });
  }

  async function suppression(email: string): Promise<{ type: string } | undefined> {
    const res = await app.api.get<{ data: { email: string; type: string }[] }>(
      `/v1/suppressions?email=${encodeURIComponent(email)}`,
      { token: apiKey },
    );
    return res.body.data.find((s) => s.email === email);
  }

  const dsnFor = (id: string, recipient: string, tag?: string): string =>
    buildDsn({
      to: null,
      recipient,
      messageId: `<${id}@${DOMAIN}>`,
      status: '5.1.1',
      diagnostic: `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown in local recipient table`,
      ...(tag ? { tag } : {}),
    });

  it('a DSN posted to /internal/bounces bounces the message, suppresses, and the next send is refused', async () => {
    const id = await delivered('gone@dest.test');
    assert.equal((await postReport(dsnFor(id, 'gone@dest.test'), 'wrong-token')).status, 401);
    const res = await postReport(dsnFor(id, 'gone@dest.test'));
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'queued');
    assert.match(res.body.id, /^job_/);

    const view = await waitStatus(id, 'bounced');
    assert.equal(view.recipients[0]?.status, 'bounced');
    assert.match(view.recipients[0]?.smtpResponse ?? '', /^550 5\.1\.1 /);
    assert.equal((await suppression('gone@dest.test'))?.type, 'hard_bounce');
    assert.ok(app.lines.some((l) => l.includes('"event":"hard_bounce"') && l.includes(id)));

    const again = await send('gone@dest.test');
    assert.equal(again.status, 403);
    assert.equal(again.code, 'SUPPRESSED_RECIPIENT');

    // The same report again (and a copy with other bytes): no second event or webhook row.
    assert.equal((await postReport(dsnFor(id, 'gone@dest.test'))).status, 202);
    assert.equal((await postReport(dsnFor(id, 'gone@dest.test', '(copy)'))).status, 202);
    await until(
      'duplicate processed',
      () =>
        app.lines.some((l) => l.includes('"event":"bounce_duplicate"')) &&
        app.lines.filter((l) => l.includes('"event":"hard_bounce"') && l.includes(id)).length >= 2
          ? true
          : undefined,
      app.lines,
    );
    const after = await get(id);
    assert.equal(after.events.filter((e) => e.type === 'bounced').length, 1);
    const db = openApplianceDb(app);
    try {
      const rows = await db.selectFrom('outbox').select('event').where('email_id', '=', id).execute();
      assert.equal(rows.filter((r) => r.event === 'email.bounced').length, 1);
    } finally {
      await db.destroy();
    }
  });

  it('an ARF complaint marks the message complained and suppresses the address', async () => {
    const id = await delivered('angry@dest.test');
    const res = await postReport(
      buildArf({
        to: null,
        originalRcptTo: 'angry@dest.test',
        recipient: 'angry@dest.test',
        messageId: `<${id}@${DOMAIN}>`,
      }),
    );
    assert.equal(res.status, 202);
    const view = await waitStatus(id, 'complained');
    assert.equal(view.recipients[0]?.status, 'complained');
    assert.equal((await suppression('angry@dest.test'))?.type, 'complaint');
    assert.ok(app.lines.some((l) => l.includes('"event":"complaint"') && l.includes(id)));
  });

  it('a report for no message of ours is logged as bounce_unmatched', async () => {
    const res = await postReport(dsnFor('email_00000000000000000000000000', 'nobody@dest.test'));
    assert.equal(res.status, 202);
    await until(
      'bounce_unmatched',
      () => (app.lines.some((l) => l.includes('"event":"bounce_unmatched"')) ? true : undefined),
      app.lines,
    );
  });

  it('a VERP-addressed DSN sent over SMTP to the MX is accepted with 250 and processed', async () => {
    const id = await delivered('mxgone@dest.test');
    const verp = verpAddress(id, DOMAIN);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: app.ports.smtp,
      secure: false,
      ignoreTLS: true,
      logger: false,
    });
    try {
      const raw = buildDsn({
        to: verp,
        recipient: 'mxgone@dest.test',
        messageId: '<not-quoted@elsewhere.test>',
        status: '5.1.1',
        diagnostic: '550 5.1.1 The email account that you tried to reach does not exist',
      });
      const info = (await transport.sendMail({ envelope: { from: '', to: [verp] }, raw })) as {
        response: string;
      };
      assert.match(info.response, /^250[ -]/);
    } finally {
      transport.close();
    }
    await waitStatus(id, 'bounced');
    assert.equal((await suppression('mxgone@dest.test'))?.type, 'hard_bounce');
    assert.ok(app.lines.some((l) => l.includes('"event":"hard_bounce"') && l.includes('"matchedBy":"verp"')));
  });
});
