// Issue 17, finding 3: forged bounces and complaints hit any account. Through the whole
// appliance (real MX, real endpoint, real worker): a report sent to account A's return
// path, naming B's message in any form, changes nothing for B; nor does a report with a
// wrong tag or for an id of no message; a genuine report to B's return path (untagged as
// the worker writes it now, issue 28 item 6, or tagged as mail still in flight carries
// it) still works; one complaint cannot suspend a small sender; and ids made in the same
// millisecond do not give each other away.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { openApplianceDb } from '../helpers/open-database';
import { sortableId } from '../../src/shared/ids';
import type { Appliance } from '../helpers/appliance';
import { applianceTaggedVerp } from '../helpers/appliance-verp';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { buildArf, buildDsn } from '../helpers/intake-reports';

const DOMAIN_A = 'a-shop.example.com';
const DOMAIN_B = 'b-shop.example.com';
const DOMAIN_C = 'c-shop.example.com';

interface Account {
  readonly apiKey: string;
  readonly userId: string;
  readonly domain: string;
}

interface EmailView {
  status: string;
  recipients: { email: string; status: string }[];
  events: { type: string }[];
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, lines: string[]): Promise<T> {
  for (const deadline = Date.now() + 45_000; ; await new Promise((r) => setTimeout(r, 150))) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what} not reached\n${lines.slice(-20).join('\n')}`);
  }
}

describe('forged bounces and complaints (issue 17, finding 3)', () => {
  let sending: SendingAppliance;
  let app: Appliance;
  let b: Account;
  let c: Account;
  let reports = 0;

  before(async () => {
    sending = await startSendingAppliance(DOMAIN_A, {
      RATE_LIMIT_EMAILS_PER_HOUR: '1000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
      ABUSE_AUTO_SUSPEND: 'true',
    });
    app = sending.app;
    const account = async (domain: string): Promise<Account> => {
      const created = await app.api.registerWithKey();
      await addVerifiedDomain(app, sending.dns, created.token, domain);
      return { apiKey: created.apiKey, userId: created.userId, domain };
    };
    b = await account(DOMAIN_B);
    c = await account(DOMAIN_C);
  });
  after(async () => {
    await sending.stop();
  });

  const view = async (a: Account, id: string): Promise<EmailView> =>
    (await app.api.get<EmailView>(`/v1/emails/${id}`, { token: a.apiKey })).body;

  async function delivered(a: Account, to: string): Promise<string> {
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: a.apiKey,
      body: { from: `Shop <orders@${a.domain}>`, to, subject: 'Your order', text: 'Thanks' },
    });
    assert.equal(res.status, 202, res.text);
    const id = res.body.id;
    await until(
      `${id} delivered`,
      async () => ((await view(a, id)).status === 'delivered' ? true : undefined),
      app.lines,
    );
    return id;
  }

  async function processed(count: number): Promise<void> {
    const db = openApplianceDb(app);
    try {
      await until(
        `${count} reports processed`,
        async () => {
          const row = await db
            .selectFrom('bounce_reports')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return row.n >= count ? true : undefined;
        },
        app.lines,
      );
    } finally {
      await db.destroy();
    }
  }

  /** Hands a report to the MX for `rcptTo` (a return-path host address) and waits until it is processed. */
  async function toMx(rcptTo: string, raw: string): Promise<void> {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: app.ports.smtp,
      ignoreTLS: true,
    });
    try {
      const info = (await transport.sendMail({ envelope: { from: '', to: [rcptTo] }, raw })) as {
        response: string;
      };
      assert.match(info.response, /^250[ -]/);
    } finally {
      transport.close();
    }
    await processed(++reports);
  }

  async function toEndpoint(raw: string): Promise<void> {
    const res = await app.api.post('/internal/bounces', {
      headers: { 'x-internal-token': app.internalToken, 'content-type': 'message/rfc822' },
      body: raw,
    });
    assert.equal(res.status, 202, res.text);
    await processed(++reports);
  }

  const dsn = (recipient: string, over: { to?: string; messageId?: string }): string =>
    buildDsn({
      to: over.to ?? null,
      recipient,
      messageId: over.messageId ?? '<not-ours@elsewhere.test>',
      status: '5.1.1',
      diagnostic: `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown`,
      tag: `(report ${reports})`,
    });

  async function unchanged(a: Account, id: string, recipient: string): Promise<void> {
    const v = await view(a, id);
    assert.equal(v.status, 'delivered');
    assert.deepEqual(
      v.recipients.map((r) => r.status),
      ['delivered'],
    );
    assert.ok(!v.events.some((e) => ['bounced', 'complained', 'soft_bounce'].includes(e.type)), 'no event');
    const sup = await app.api.get<{ data: unknown[] }>(
      `/v1/suppressions?email=${encodeURIComponent(recipient)}`,
      {
        token: a.apiKey,
      },
    );
    assert.deepEqual(sup.body.data, [], 'no suppression');
    assert.ok(!app.lines.some((l) => l.includes(id) && /"event":"(hard_bounce|complaint)"/.test(l)));
  }

  it("a DSN to A's return path naming B's email by envelope VERP, tagged or not, changes nothing for B", async () => {
    const id = await delivered(b, 'b1@dest.test');
    const genuine = applianceTaggedVerp(app, id, DOMAIN_B);
    const wrongTag = genuine.replace(/\.[0-9a-z]{16}@/, '.0000000000000000@');
    for (const rcpt of [
      `bounce+${id}@bounce.${DOMAIN_A}`, // B's id untagged, at A's host: the scope keeps B's mail out
      wrongTag, // B's host, wrong tag: a tag that is present must verify
      genuine.replace(`@bounce.${DOMAIN_B}`, `@bounce.${DOMAIN_A}`), // B's real tag, A's host
    ]) {
      await toMx(rcpt, dsn('b1@dest.test', {}));
    }
    await unchanged(b, id, 'b1@dest.test');
  });

  it("a DSN to A's return path naming B's email in its own headers (header VERP) changes nothing for B", async () => {
    const id = await delivered(b, 'b2@dest.test');
    await toMx(`anyone@bounce.${DOMAIN_A}`, dsn('b2@dest.test', { to: `bounce+${id}@bounce.${DOMAIN_B}` }));
    await toMx(
      `anyone@bounce.${DOMAIN_A}`,
      dsn('b2@dest.test', { to: applianceTaggedVerp(app, id, DOMAIN_B) }),
    );
    // The operator's endpoint: the report's own To: is A's return path, so only A's mail.
    await toEndpoint(dsn('b2@dest.test', { to: `bounce+${id}@bounce.${DOMAIN_A}` }));
    await unchanged(b, id, 'b2@dest.test');
  });

  it("a DSN to A's return path quoting B's Message-ID changes nothing for B", async () => {
    const id = await delivered(b, 'b3@dest.test');
    const messageId = `<${id}@${DOMAIN_B}>`;
    await toMx(`bounce@bounce.${DOMAIN_A}`, dsn('b3@dest.test', { messageId }));
    await toEndpoint(dsn('b3@dest.test', { to: `postmaster@bounce.${DOMAIN_A}`, messageId }));
    await unchanged(b, id, 'b3@dest.test');
  });

  it("B's mail leaves with the return path bounce+<email_id>@bounce.<B's domain>, and a DSN to it bounces B's recipient", async () => {
    const id = await delivered(b, 'b5@dest.test');
    const copy = sending.sink.messages.find((m) => m.rcptTo.includes('b5@dest.test'));
    assert.ok(copy, 'the message at the sink');
    // Spec, domains rule 5: exactly this, no tag.
    assert.equal(copy.mailFrom, `bounce+${id}@bounce.${DOMAIN_B}`);
    await toMx(copy.mailFrom, dsn('b5@dest.test', {}));
    const v = await view(b, id);
    assert.equal(v.status, 'bounced');
    assert.deepEqual(
      v.recipients.map((r) => r.status),
      ['bounced'],
    );
    assert.ok(
      app.lines.some(
        (l) => l.includes(id) && l.includes('"event":"hard_bounce"') && l.includes('"matchedBy":"verp"'),
      ),
    );
  });

  it("an untagged report naming an id of no message, at B's own return path, touches nothing", async () => {
    const id = await delivered(b, 'b6@dest.test');
    // The next id in the same millisecond would differ by 64 random bits: try a neighbour.
    const guessed = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    await toMx(`bounce+${guessed}@bounce.${DOMAIN_B}`, dsn('b6@dest.test', {}));
    await toEndpoint(dsn('b6@dest.test', { to: `bounce+${guessed}@bounce.${DOMAIN_B}` }));
    await unchanged(b, id, 'b6@dest.test');
    assert.equal(
      app.lines.filter((l) => l.includes('"event":"bounce_unmatched"') && l.includes(guessed)).length,
      2,
    );
  });

  it("a genuine DSN to B's own return path with the right tag (mail in flight) still bounces B's recipient", async () => {
    const id = await delivered(b, 'b4@dest.test');
    await toMx(applianceTaggedVerp(app, id, DOMAIN_B), dsn('b4@dest.test', {}));
    const v = await view(b, id);
    assert.equal(v.status, 'bounced');
    assert.deepEqual(
      v.recipients.map((r) => r.status),
      ['bounced'],
    );
    assert.ok(
      app.lines.some(
        (l) => l.includes(id) && l.includes('"event":"hard_bounce"') && l.includes('"matchedBy":"verp"'),
      ),
    );
  });

  it('a single complaint cannot suspend an account below ABUSE_MIN_VOLUME, even with ABUSE_AUTO_SUSPEND', async () => {
    const id = await delivered(c, 'c1@dest.test');
    // The recipient saw the Return-Path and the Message-ID, so a complaint that names the
    // message both ways, at C's own return path, is the worst case.
    const arf = buildArf({
      to: null,
      originalRcptTo: 'c1@dest.test',
      recipient: 'c1@dest.test',
      messageId: `<${id}@${DOMAIN_C}>`,
    });
    await toMx(`bounce+${id}@bounce.${DOMAIN_C}`, arf);
    assert.equal((await view(c, id)).status, 'complained');
    // The evaluation is due at the end of the minute; bring it forward instead of waiting.
    const db = openApplianceDb(app);
    const ofC = `%${c.userId}%`;
    let signals: string;
    try {
      await db
        .updateTable('jobs')
        .set({ run_at: new Date().toISOString() })
        .where('queue', '=', 'abuse-evaluation')
        .where('payload', 'like', ofC)
        .where('state', '=', 'queued')
        .execute();
      signals = await until(
        'abuse evaluation of C',
        async () => {
          const open = await db
            .selectFrom('jobs')
            .select('id')
            .where('queue', '=', 'abuse-evaluation')
            .where('payload', 'like', ofC)
            .where('state', '!=', 'succeeded')
            .execute();
          const line = app.lines.find((l) => l.includes('"event":"abuse_signals"') && l.includes(c.userId));
          return open.length === 0 ? line : undefined;
        },
        app.lines,
      );
    } finally {
      await db.destroy();
    }
    assert.match(signals, /complaint_rate/);
    assert.ok(!app.lines.some((l) => l.includes('"event":"account_suspended"') && l.includes(c.userId)));
    assert.equal((await app.api.get('/v1/settings', { token: c.apiKey })).status, 200);
    assert.ok(
      app.lines.some((l) => l.includes('"event":"abuse_suspension_withheld"') && l.includes(c.userId)),
    );
  });
});

describe('ids made in the same millisecond (issue 17, finding 3)', () => {
  it('are increasing but not predictable from each other', () => {
    const t = Date.now() + 3_600_000; // later than any id this process made: sortableId keeps it
    const ids = Array.from({ length: 200 }, () => sortableId(t));
    assert.ok(
      ids.every((id) => id.startsWith(ids[0]!.slice(0, 10))),
      'one millisecond',
    );
    assert.deepEqual([...ids].sort(), ids);
    const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
    const value = (id: string): bigint =>
      Array.from(id.slice(10), (ch) => ch).reduce((n, ch) => n * 32n + BigInt(ALPHABET.indexOf(ch)), 0n);
    const steps = ids.slice(1).map((id, i) => value(id) - value(ids[i]!));
    // Sequential ids differ by one; ours by an unpredictable amount (64 fresh random bits each).
    assert.ok(steps.every((s) => s > 0n));
    assert.ok(new Set(steps).size > 190, 'differences repeat: the next id follows from the last');
    assert.ok(steps.filter((s) => s === 1n).length === 0);
  });
});
