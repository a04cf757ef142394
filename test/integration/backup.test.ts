import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { BackupManifest } from '../../src/cli/backup/backup-manifest';
import type { DoctorReport } from '../../src/cli/doctor/doctor-report';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';

interface Session {
  token: string;
  user: { id: string };
}

describe('backup and restore of a running appliance', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-backup-it-'));
  let app: Appliance | undefined;

  after(async () => {
    if (app && app.process.exitCode === null && app.process.signalCode === null) await app.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('backs up online, restores into a wiped DATA_DIR, and the same credentials work', async (t) => {
    // SQLite only: ctl backup/restore copy the SQLite file (on PostgreSQL they refuse and point
    // at pg_dump, docs/backup.md).
    app = await startAppliance({ backend: 'sqlite' });
    const { dataDir, env, api } = app;
    const email = 'keeper@example.com';
    const password = 'a long enough password';
    const reg = await app.api.post<Session>('/v1/auth/register', {
      body: { email, password, name: 'Keeper' },
    });
    assert.equal(reg.status, 201, reg.text);
    const key = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: reg.body.token,
      body: { name: 'kept-key' },
    });
    assert.equal(key.status, 201, key.text);
    // An older version's MTA queue directory (OUTBOUND_SENDER=haraka; made here, after the
    // start-up import ran): this file proves the queue directory travels.
    const queueMarker = path.join(dataDir, 'mta-queue', 'error.backup-test');
    fs.mkdirSync(path.dirname(queueMarker), { recursive: true, mode: 0o700 });
    fs.writeFileSync(queueMarker, 'queue marker');

    // The doctor sees our own listeners as "served by Mailroom".
    const doctor = await runCtl(env, ['doctor', '--offline', '--json']);
    const report = JSON.parse(doctor.stdout) as DoctorReport;
    // No MTA_INJECT_PORT: the worker delivers itself (OUTBOUND_SENDER=worker, the default).
    assert.equal(
      report.checks.find((c) => c.id === 'port_mta_inject_port'),
      undefined,
    );
    for (const id of ['port_port', 'port_worker_port', 'port_smtp_port']) {
      const check = report.checks.find((c) => c.id === id);
      assert.ok(check, id);
      assert.equal(check.status, 'ok', `${id}: ${JSON.stringify(check)}`);
      assert.match(check.summary, /served by Mailroom/);
    }

    // Writes keep coming while the backup runs: it must still be consistent.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const r = await api.register(`during-${written}@example.com`);
        assert.ok(r.token);
        written += 1;
      }
    })();
    const archive = path.join(work, 'mailroom.tar.gz');
    const backup = await runCtl(env, ['backup', archive, '--json']);
    writing = false;
    await writer;
    assert.equal(backup.code, 0, backup.stderr);
    t.diagnostic(
      `${written} accounts registered while the backup ran; ${backup.stderr.trim().replace(/\n/g, ' | ')}`,
    );
    const manifest = (JSON.parse(backup.stdout) as { manifest: BackupManifest }).manifest;
    const files = manifest.files.map((f) => f.path);
    assert.ok(files.includes('secret.key'), files.join(', '));
    assert.ok(files.includes('mta-queue/error.backup-test'), files.join(', '));
    assert.equal(
      files.some((f) => f.startsWith('mta/') || f.startsWith('mail.db')),
      false,
      files.join(', '),
    );
    assert.equal(manifest.secretKey.source, 'file');
    assert.ok(fs.statSync(archive).size > 0);

    // Restore refuses while the appliance runs.
    const busy = await runCtl(env, ['restore', archive]);
    assert.notEqual(busy.code, 0);
    assert.match(busy.stderr, /the appliance is running/);

    // Made after the backup: must not come back.
    const late = await app.api.register('after-backup@example.com');
    assert.ok(late.token);

    const stopped = await app.stop();
    assert.equal(stopped.code, 0);

    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { mode: 0o700 });
    const restored = await runCtl(env, ['restore', archive]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /restored the backup of/);
    assert.equal(fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777, 0o600);
    assert.equal(fs.readFileSync(queueMarker, 'utf8'), 'queue marker');

    // A second restore over the restored data needs --force.
    const again = await runCtl(env, ['restore', archive]);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /already holds data/);

    app = await startAppliance({ dataDir, backend: 'sqlite' });
    const login = await app.api.post<Session>('/v1/auth/login', { body: { email, password } });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.user.id, reg.body.user.id);
    // A session issued before the backup still verifies: the same secret.key came back.
    const me = await app.api.get<{ email: string }>('/v1/auth/me', { token: reg.body.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.email, email);
    const keys = await app.api.get('/v1/api-keys', { token: login.body.token });
    assert.equal(keys.status, 200, keys.text);
    assert.match(keys.text, /kept-key/);

    const gone = await app.api.post('/v1/auth/login', {
      body: { email: 'after-backup@example.com', password: 'correct horse battery staple' },
    });
    assert.equal(gone.status, 401);

    const final = await app.stop();
    assert.equal(final.code, 0);
    assert.ok(final.ms < 10_000, `stopped in ${final.ms} ms`);
  });
});
