import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { insertUser } from '../../../src/modules/accounts/accounts.repository';
import type { Actor } from '../../../src/modules/audit/audit.repository';
import { listAudit } from '../../../src/modules/audit/audit.repository';
import {
  createDnsRecheckHandler,
  recheckCadenceMs,
  recheckDomains,
  scheduleDnsRecheck,
} from '../../../src/modules/domains/domains.jobs';
import type { DomainHosts, DomainView } from '../../../src/modules/domains/domains.usecases';
import { createDomain, getDomain, verifyDomain } from '../../../src/modules/domains/domains.usecases';
import { createDnsResolver } from '../../../src/shared/dns-resolver';
import { createSealer } from '../../../src/shared/seal';
import { captureLog } from '../../helpers/capture-log';
import type { FakeDns } from '../../helpers/dns-server';
import { startDnsServer } from '../../helpers/dns-server';
import { publish, recordOf } from '../../helpers/dns-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const hosts: DomainHosts = {
  mailHostname: 'mail.mailroom.net',
  mxHost: 'mail.mailroom.net',
  bounceHost: 'mail.mailroom.net',
  spfIncludeHost: '_spf.mail.mailroom.net',
};
const intervalS = 3600;
const actor: Actor = { type: 'user', id: null, ip: '127.0.0.1', userAgent: 'test' };
const HOUR = 3_600_000;

describe('periodic DNS re-check (real database, fake DNS)', () => {
  let t: TestDb;
  let db: Db;
  let dns: FakeDns;
  let userId: string;
  const { logger: log, lines } = captureLog({ level: 'info' });
  const sealer = createSealer({ secretKey: 's'.repeat(40) });
  let clock = Date.now();
  let deps: Parameters<typeof recheckDomains>[0];

  before(async () => {
    t = await createTestDb();
    db = t.db;
    dns = await startDnsServer();
    const dnsResolver = createDnsResolver({
      servers: [{ host: dns.host, port: dns.port }],
      timeoutMs: 300,
      tries: 1,
      maxTimeoutMs: 300,
    });
    deps = { db, resolver: dnsResolver, hosts, intervalS, log, now: () => new Date(clock) };
    userId = (
      await insertUser(db, { id: 'usr_recheck', email: 'r@example.com', name: 'R', passwordHash: 'x' })
    ).id;
  });
  after(async () => {
    await dns.close();
    await t.close();
  });
  beforeEach(async () => {
    // Each test starts from no domains, so one test's verified domains are not due in the next.
    await db.deleteFrom('domains').execute();
    dns.clear();
    lines.length = 0;
  });

  async function verifiedDomain(name: string): Promise<DomainView> {
    const view = await createDomain({ db, userId, sealer, hosts, actor, input: { domain: name } });
    publish(dns, view.records);
    const result = await verifyDomain({ ...deps, userId, actor, domainId: view.id });
    assert.equal(result.verified, true);
    assert.equal(result.status, 'VERIFIED');
    return view;
  }

  it('re-checks due domains only, and keeps a domain whose records are still there', async () => {
    clock = Date.now();
    const view = await verifiedDomain('still-good.example.com');
    assert.deepEqual(await recheckDomains(deps), {
      checked: 0,
      stillVerified: 0,
      regressed: 0,
      lookupFailed: 0,
    });
    clock += intervalS * 1000 + 1000;
    assert.deepEqual(await recheckDomains(deps), {
      checked: 1,
      stillVerified: 1,
      regressed: 0,
      lookupFailed: 0,
    });
    const after = await getDomain({ db, userId, hosts, domainId: view.id });
    assert.equal(after.status, 'VERIFIED');
    assert.equal(after.lastCheckedAt, new Date(clock).toISOString());
    assert.ok(
      lines.some((l) => l.event === 'dns_verification' && l.trigger === 'recheck' && l.domainId === view.id),
    );
    // Checked now, so not due again for an interval.
    assert.equal((await recheckDomains(deps)).checked, 0);
  });

  it('regresses a verified domain whose DKIM record disappeared, logs and audits it', async () => {
    clock = Date.now();
    const view = await verifiedDomain('regress.example.com');
    dns.remove(recordOf(view.records, 'dkim').name);
    clock += intervalS * 1000 + 1000;
    const summary = await recheckDomains(deps);
    assert.equal(summary.regressed, 1);
    const after = await getDomain({ db, userId, hosts, domainId: view.id });
    assert.equal(after.status, 'FAILED');
    assert.equal(after.verifiedAt, null);
    const event = lines.find((l) => l.event === 'dns_verification_regressed');
    assert.ok(event, 'dns_verification_regressed logged');
    assert.equal(event.domainId, view.id);
    assert.equal((event.checks as Record<string, string>).dkim, 'MISSING_RECORD');
    assert.ok(!JSON.stringify(lines).includes('PRIVATE KEY'));
    const audit = await listAudit(db, { userId, action: 'domain.verification_attempted', limit: 10 });
    const entry = audit.find((a) => a.resourceId === view.id && a.actorType === 'system');
    assert.ok(entry, 'regression audited as a system action');
    assert.equal((entry.details as { regressed: boolean }).regressed, true);

    // Not re-checked any more: the customer must verify again, which works once the record is back.
    clock += intervalS * 1000 * 2;
    assert.equal((await recheckDomains(deps)).checked, 0);
    publish(dns, view.records, ['spf', 'dmarc', 'return_path']);
    const again = await verifyDomain({ ...deps, userId, actor, domainId: view.id });
    assert.equal(again.status, 'VERIFIED');
  });

  it('keeps a verified domain through DNS failures, retrying sooner, until they last about an interval', async () => {
    clock = Date.now();
    const view = await verifiedDomain('flaky.example.com');
    dns.fail('flaky.example.com', 'SERVFAIL');
    for (let i = 1; i <= 3; i++) {
      clock += intervalS * 1000 + 1000;
      assert.deepEqual(await recheckDomains(deps), {
        checked: 1,
        stillVerified: 0,
        regressed: 0,
        lookupFailed: 1,
      });
      assert.equal((await getDomain({ db, userId, hosts, domainId: view.id })).status, 'VERIFIED');
    }
    const row = await db
      .selectFrom('domains')
      .selectAll()
      .where('id', '=', view.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.lookup_failures, 3);
    assert.equal(row.next_check_at, new Date(clock + (intervalS * 1000) / 4).toISOString());
    clock += HOUR;
    assert.equal((await recheckDomains(deps)).regressed, 1);
    const event = lines.find((l) => l.event === 'dns_verification_regressed' && l.domainId === view.id);
    assert.equal(event?.reason, 'lookups_failing');
  });

  it('a successful re-check after a DNS failure resets the failure count', async () => {
    clock = Date.now();
    const view = await verifiedDomain('blip.example.com');
    dns.fail('blip.example.com', 'TIMEOUT');
    clock += intervalS * 1000 + 1000;
    assert.equal((await recheckDomains(deps)).lookupFailed, 1);
    dns.unfail('blip.example.com');
    clock += HOUR;
    assert.equal((await recheckDomains(deps)).stillVerified, 1);
    const row = await db
      .selectFrom('domains')
      .selectAll()
      .where('id', '=', view.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.lookup_failures, 0);
  });

  it('schedules one sweep per cadence slot, whoever asks', async () => {
    const now = new Date('2030-01-01T00:07:00.000Z');
    assert.equal(recheckCadenceMs(21_600), 600_000);
    assert.equal(recheckCadenceMs(30), 30_000);
    const a = await scheduleDnsRecheck(db, { intervalS: 21_600, now });
    const b = await scheduleDnsRecheck(db, { intervalS: 21_600, now: new Date('2030-01-01T00:09:59.000Z') });
    assert.equal(a.created, true);
    assert.equal(b.id, a.id);
    assert.equal(b.created, false);
    const next = await scheduleDnsRecheck(db, { intervalS: 21_600, now, slot: 'next' });
    assert.notEqual(next.id, a.id);
    const jobs = await db.selectFrom('jobs').selectAll().where('queue', '=', 'dns-recheck').execute();
    const runAts = jobs.map((j) => j.run_at).sort();
    assert.deepEqual(runAts.slice(0, 2), ['2030-01-01T00:00:00.000Z', '2030-01-01T00:10:00.000Z']);
  });

  it('the job handler enqueues the next sweep, then re-checks what is due', async () => {
    clock = Date.now();
    const view = await verifiedDomain('handler.example.com');
    await db
      .updateTable('domains')
      .set({ next_check_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', view.id)
      .execute();
    dns.remove(recordOf(view.records, 'spf').name, 'TXT');
    const handler = createDnsRecheckHandler({
      db,
      config: { ...hosts, dnsServers: [{ host: dns.host, port: dns.port }], dnsRecheckIntervalS: 30 },
    });
    const before = await db.selectFrom('jobs').select('id').where('queue', '=', 'dns-recheck').execute();
    await handler({ payload: {} }, { signal: new AbortController().signal, logger: log });
    const afterJobs = await db
      .selectFrom('jobs')
      .select(['id', 'run_at'])
      .where('queue', '=', 'dns-recheck')
      .execute();
    assert.equal(afterJobs.length, before.length + 1);
    assert.equal((await getDomain({ db, userId, hosts, domainId: view.id })).status, 'FAILED');
    const sweep = lines.find((l) => l.event === 'dns_recheck_sweep');
    assert.equal(sweep?.regressed, 1);
  });
});
