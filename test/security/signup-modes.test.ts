import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../src/config';
import { openSignupWarning } from '../../src/config/open-signup-warning';
import { checkConfig } from '../../src/cli/doctor/config-check';
import { listAudit } from '../../src/modules/audit/audit.repository';
import type { ApiNode } from '../helpers/backend-api';
import { TEST_INTERNAL_TOKEN, startApiNode } from '../helpers/backend-api';
import { runCtl } from '../helpers/ctl';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';

/**
 * Issue 28 item 1: sign-up was open to anyone who reached the dashboard, who could then verify
 * a domain and send through the operator's IP. SIGNUP_MODE: `invite` (the default) lets the
 * first account of an empty install register and every later one only with an operator's
 * invitation (single use, expiring, audited); `closed` registers nobody; `open` is the old
 * behaviour, warned about when BASE_URL is public. Refusals never say whether an address has
 * an account. Runs on the matrix's backend (SQLite, or PostgreSQL under with-postgres).
 */
interface ErrorBody {
  error: { code: string; message: string };
}
interface Invitation {
  id: string;
  email: string;
  token: string;
  url: string;
}

const PASSWORD = 'correct horse battery staple';
const BASE_URL = 'https://mail.example.com';

/** One appliance (an api node on a fresh database) in a given mode, with its ctl. */
async function install(mode: string | undefined): Promise<{
  t: TestDb;
  node: ApiNode;
  ctl: (...args: string[]) => Promise<unknown>;
  register: (email: string, invitation?: string) => ReturnType<ApiNode['api']['post']>;
  close: () => Promise<void>;
}> {
  const t = await createTestDb();
  const env: Record<string, string> = { BASE_URL, AUTH_RATE_LIMIT_PER_15_MIN: '100000' };
  // startApiNode defaults to open for the other tests; undefined here means "the real default".
  const node = await startApiNode(t.db, t, { ...env, SIGNUP_MODE: mode ?? parseConfig({}).signupMode });
  const ctlEnv = { PATH: process.env.PATH ?? '', DATA_DIR: t.dataDir, DATABASE_URL: t.url, ...env };
  return {
    t,
    node,
    ctl: async (...args) => {
      const out = await runCtl(ctlEnv, args);
      assert.equal(out.code, 0, `ctl ${args.join(' ')}: ${out.stderr}`);
      return JSON.parse(out.stdout) as unknown;
    },
    register: (email, invitation) =>
      node.api.post('/v1/auth/register', {
        body: { email, password: PASSWORD, name: 'Someone', ...(invitation ? { invitation } : {}) },
      }),
    close: async () => {
      await node.close();
      await t.close();
    },
  };
}

/** What a refusal shows a caller: status, code and message (the request id differs). */
function refusal(res: { status: number; body: unknown }): [number, string, string] {
  const { error } = res.body as ErrorBody;
  return [res.status, error.code, error.message];
}

describe('SIGNUP_MODE=invite (the default)', () => {
  let box: Awaited<ReturnType<typeof install>>;
  before(async () => {
    box = await install(undefined);
  });
  after(() => box.close());

  it('is the default', () => {
    assert.equal(parseConfig({}).signupMode, 'invite');
  });

  it('lets the first account of an empty install register, then asks for an invitation', async () => {
    const first = await box.register('owner@example.com');
    assert.equal(first.status, 201, first.text);

    const second = await box.register('stranger@example.com');
    assert.equal(second.status, 403, second.text);
    const { error } = second.body as ErrorBody;
    assert.equal(error.code, 'INVITATION_REQUIRED');
    assert.match(error.message, /invitation/i);
    assert.match(error.message, /operator/i, 'the message says whom to ask');
  });

  it('admits an invited address once, audited; the token cannot be used again', async () => {
    const inv = (await box.ctl('accounts', 'invite', 'guest@example.com')) as Invitation;
    assert.match(inv.token, /^inv_/);
    assert.equal(inv.url, `${BASE_URL}/app/signup#invite=${inv.token}`);
    const listed = (await box.ctl('accounts', 'invitations')) as Record<string, unknown>[];
    assert.deepEqual(
      listed.map((i) => i.id),
      [inv.id],
    );
    assert.ok(!JSON.stringify(listed).includes(inv.token), 'the list never shows a token');

    const ok = await box.register('guest@example.com', inv.token);
    assert.equal(ok.status, 201, ok.text);
    const userId = (ok.body as { user: { id: string } }).user.id;

    const again = await box.register('guest2@example.com', inv.token);
    assert.deepEqual(refusal(again).slice(0, 2), [403, 'INVITATION_INVALID']);
    assert.deepEqual(
      await box.ctl('accounts', 'invitations'),
      [],
      'an accepted invitation is no longer pending',
    );

    const created = await listAudit(box.t.db, { action: 'invitation.created', limit: 10 });
    assert.deepEqual(
      created.map((e) => [e.actorType, e.resourceId]),
      [['operator', inv.id]],
    );
    const accepted = await listAudit(box.t.db, { action: 'invitation.accepted', limit: 10 });
    assert.deepEqual(
      accepted.map((e) => [e.userId, e.resourceId]),
      [[userId, inv.id]],
    );
  });

  it('refuses an invitation for another address, an expired one and a revoked one', async () => {
    const other = (await box.ctl('accounts', 'invite', 'alice@example.com')) as Invitation;
    assert.deepEqual(refusal(await box.register('mallory@example.com', other.token)).slice(0, 2), [
      403,
      'INVITATION_INVALID',
    ]);

    const expired = (await box.ctl('accounts', 'invite', 'late@example.com', '--days', '1')) as Invitation;
    await box.t.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    assert.deepEqual(refusal(await box.register('late@example.com', expired.token)).slice(0, 2), [
      403,
      'INVITATION_INVALID',
    ]);

    const revoked = (await box.ctl('accounts', 'invite', 'gone@example.com')) as Invitation;
    assert.deepEqual(await box.ctl('accounts', 'revoke-invitation', revoked.id), { revoked: revoked.id });
    assert.deepEqual(refusal(await box.register('gone@example.com', revoked.token)).slice(0, 2), [
      403,
      'INVITATION_INVALID',
    ]);
    const audit = await listAudit(box.t.db, { action: 'invitation.revoked', limit: 10 });
    assert.deepEqual(
      audit.map((e) => e.resourceId),
      [revoked.id],
    );

    const users = await box.t.db.selectFrom('users').select('email').execute();
    assert.deepEqual(users.map((u) => u.email).sort(), ['guest@example.com', 'owner@example.com']);
  });

  it('answers a registered address exactly as a new one (no account enumeration)', async () => {
    assert.deepEqual(
      refusal(await box.register('owner@example.com')),
      refusal(await box.register('new@example.com')),
    );
    assert.deepEqual(
      refusal(await box.register('owner@example.com', 'inv_made_up')),
      refusal(await box.register('new@example.com', 'inv_made_up')),
    );
  });

  it('lets operators invite over the API: a session with the operator role, or the internal token', async () => {
    const owner = await box.node.api.post<{ token: string }>('/v1/auth/login', {
      body: { email: 'owner@example.com', password: PASSWORD },
    });
    const notYet = await box.node.api.get('/v1/operator/invitations', { token: owner.body.token });
    assert.equal(notYet.status, 403, 'only the operator role reaches the operator routes');
    await box.ctl('accounts', 'grant-operator', 'owner@example.com');

    const created = await box.node.api.post<Invitation>('/v1/operator/invitations', {
      token: owner.body.token,
      body: { email: 'api-guest@example.com', expiresInDays: 3 },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.url, `${BASE_URL}/app/signup#invite=${created.body.token}`);
    const list = await box.node.api.get<{ data: { id: string }[] }>('/v1/operator/invitations', {
      token: owner.body.token,
    });
    assert.ok(list.body.data.some((i) => i.id === created.body.id));
    assert.ok(!list.text.includes(created.body.token), 'the list never shows a token');
    const [audit] = await listAudit(box.t.db, { action: 'invitation.created', limit: 1 });
    assert.equal(audit?.resourceId, created.body.id);
    assert.equal(audit?.actorType, 'operator');

    const internal = { 'x-internal-token': TEST_INTERNAL_TOKEN };
    const viaToken = await box.node.api.post<Invitation>('/internal/invitations', {
      headers: internal,
      body: { email: 'script-guest@example.com' },
    });
    assert.equal(viaToken.status, 201, viaToken.text);
    const revoked = await box.node.api.delete(`/internal/invitations/${viaToken.body.id}`, {
      headers: internal,
    });
    assert.deepEqual(revoked.body, { id: viaToken.body.id, deleted: true });
    const twice = await box.node.api.delete(`/v1/operator/invitations/${viaToken.body.id}`, {
      token: owner.body.token,
    });
    assert.deepEqual(refusal(twice).slice(0, 2), [404, 'INVITATION_NOT_FOUND']);
    assert.deepEqual(
      refusal(await box.register('script-guest@example.com', viaToken.body.token)).slice(0, 2),
      [403, 'INVITATION_INVALID'],
    );

    const ok = await box.register('api-guest@example.com', created.body.token);
    assert.equal(ok.status, 201, ok.text);
    const anonymous = await box.node.api.post('/v1/operator/invitations', {
      body: { email: 'x@example.com' },
    });
    assert.equal(anonymous.status, 401);
  });

  it('lets an operator create an account from the command line', async () => {
    const out = (await box.ctl('accounts', 'create', 'made@example.com')) as {
      account: { email: string };
      password: string;
    };
    assert.equal(out.account.email, 'made@example.com');
    const login = await box.node.api.post('/v1/auth/login', {
      body: { email: 'made@example.com', password: out.password },
    });
    assert.equal(login.status, 200, login.text);
  });
});

describe('SIGNUP_MODE=invite: concurrent first registrations on an empty install', () => {
  it('admits exactly one', async () => {
    const box = await install('invite');
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => box.register(`racer${i}@example.com`)),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 403, 403, 403, 403, 403], answers.map((a) => a.text).join('\n'));
      for (const a of answers.filter((x) => x.status === 403))
        assert.equal((a.body as ErrorBody).error.code, 'INVITATION_REQUIRED');
      const users = await box.t.db.selectFrom('users').select('id').execute();
      assert.equal(users.length, 1);
    } finally {
      await box.close();
    }
  });
});

describe('SIGNUP_MODE=closed', () => {
  let box: Awaited<ReturnType<typeof install>>;
  before(async () => {
    box = await install('closed');
  });
  after(() => box.close());

  it('registers nobody, not even the first account; operators create accounts with ctl', async () => {
    const first = await box.register('owner@example.com');
    assert.deepEqual(refusal(first).slice(0, 2), [403, 'SIGNUP_CLOSED']);
    assert.match((first.body as ErrorBody).error.message, /operator/i);

    const out = (await box.ctl('accounts', 'create', 'owner@example.com', '--name', 'Owner')) as {
      password: string;
    };
    const login = await box.node.api.post('/v1/auth/login', {
      body: { email: 'owner@example.com', password: out.password },
    });
    assert.equal(login.status, 200, login.text);
    const created = await listAudit(box.t.db, { action: 'user.created', limit: 10 });
    assert.equal(created.length, 1);
    assert.equal(created[0]?.actorType, 'operator');

    // The same answer for the registered address as for a new one, and with an invitation.
    const inv = (await box.ctl('accounts', 'invite', 'later@example.com')) as Invitation;
    assert.deepEqual(refusal(await box.register('owner@example.com')), refusal(first));
    assert.deepEqual(refusal(await box.register('later@example.com', inv.token)), refusal(first));
  });
});

describe('SIGNUP_MODE=open', () => {
  let box: Awaited<ReturnType<typeof install>>;
  before(async () => {
    box = await install('open');
  });
  after(() => box.close());

  it('registers anyone, as before', async () => {
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      const res = await box.register(email);
      assert.equal(res.status, 201, res.text);
    }
    const dup = await box.register('a@example.com');
    assert.deepEqual(refusal(dup).slice(0, 2), [409, 'EMAIL_ALREADY_REGISTERED']);
  });
});

describe('open sign-up on a public BASE_URL is warned about (boot log and ctl doctor)', () => {
  const doctorHints = (env: Record<string, string>): readonly string[] => checkConfig(env).check.hints ?? [];

  it('warns for open with a public BASE_URL', () => {
    for (const baseUrl of ['https://mail.example.com', 'http://203.0.113.9:3000', 'https://[2001:db8::1]']) {
      const env = { SIGNUP_MODE: 'open', BASE_URL: baseUrl };
      const warning = openSignupWarning(parseConfig(env));
      assert.ok(warning !== undefined, baseUrl);
      assert.match(warning, /SIGNUP_MODE is open/);
      assert.ok(doctorHints(env).includes(warning), `doctor shows it for ${baseUrl}`);
    }
  });

  it('says nothing for loopback or private addresses, or another mode', () => {
    for (const baseUrl of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'http://10.1.2.3',
      'http://192.168.1.20:3000',
      'http://172.20.0.5',
      'http://mailroom.internal',
      'http://box.lan',
    ]) {
      const env = { SIGNUP_MODE: 'open', BASE_URL: baseUrl };
      assert.equal(openSignupWarning(parseConfig(env)), undefined, baseUrl);
      assert.ok(!doctorHints(env).some((h) => h.includes('SIGNUP_MODE')), baseUrl);
    }
    for (const mode of ['invite', 'closed']) {
      const env = { SIGNUP_MODE: mode, BASE_URL: 'https://mail.example.com' };
      assert.equal(openSignupWarning(parseConfig(env)), undefined, mode);
      assert.ok(!doctorHints(env).some((h) => h.includes('SIGNUP_MODE')), mode);
    }
  });
});
