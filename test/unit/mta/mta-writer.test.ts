import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { MtaOutcomePayload } from '../../../src/modules/delivery/mta-outcome';
import { parseConfig } from '../../../src/config';
import { outcomeDedupeKey } from '../../../src/mta/delivery-reports';
import type { IntakeJob, RoutedRecipient } from '../../../src/mta/inbound-intake';
import { acceptInbound } from '../../../src/mta/inbound-intake';
import { startMtaWriter } from '../../../src/mta/mta-writer';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';
import { fileRawStore } from '../../../src/modules/inbound/raw-file-store';

const base: MtaOutcomePayload = {
  emailId: 'email_0000000000000000000000000b',
  recipient: 'a@dest.test',
  outcome: 'delivered',
  smtpCode: 250,
  enhancedStatus: null,
  response: 'OK',
  attempt: 1,
  host: 'mx.dest.test',
  at: '2025-01-01T00:00:00.000Z',
};

describe('the mta writer thread (units mta.delivery-reports and mta.intake, real database)', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.close());

  /** The thread on `url` (default: the test database), as mta-runtime starts it. */
  const writer = (url = t.url, idleMs?: number) =>
    startMtaWriter(
      {
        url,
        config: { ...parseConfig({ DATA_DIR: t.dataDir, DATABASE_URL: t.url }), secretKey: 'k'.repeat(32) },
      },
      { idleMs },
    );
  /** A database that cannot open, on either backend: a SQLite file below a regular file. */
  const unopenable = async (): Promise<string> => {
    const blocker = path.join(t.dataDir, 'a-file');
    await fs.writeFile(blocker, '');
    return `sqlite:${path.join(blocker, 'not-a-dir', 'mail.db')}`;
  };

  it('resolves once the jobs are committed, as seen from another connection', async () => {
    const thread = writer();
    const record = thread.deliveryReports;
    try {
      const payloads = ['a', 'b', 'c'].map((r) => ({ ...base, recipient: `${r}@dest.test` }));
      const counts = await Promise.all([record([payloads[0]!, payloads[1]!]), record([payloads[2]!])]);
      assert.deepEqual(counts, [2, 1]);
      const reader = t.open();
      const keys = (
        await reader.selectFrom('jobs').select('dedupe_key').where('queue', '=', 'mta-outcome').execute()
      )
        .map((r) => r.dedupe_key)
        .sort();
      assert.deepEqual(keys, payloads.map((p) => outcomeDedupeKey(p)).sort());
      assert.equal(await record([payloads[0]!]), 0, 'a replayed hook adds nothing');
    } finally {
      await thread.close();
    }
  });

  it('a write that fails rejects its caller, and a thread that cannot start fails every caller', async () => {
    const broken = writer(await unopenable());
    try {
      await assert.rejects(broken.deliveryReports([base]));
    } finally {
      await broken.close();
    }
  });

  const envelope = {
    mailFrom: 'a@client.test',
    remoteIp: '192.0.2.1',
    helo: 'client.test',
    receivedAt: '2025-01-01T00:00:00.000Z',
  };
  const intakeJob = (rawPath: string): IntakeJob => ({
    queue: 'inbound-processing',
    payload: {
      rawPath,
      sha256: '00',
      size: 1,
      ...envelope,
      rcptTo: ['x@in.example.test'],
      domainId: 'dom_1',
      userId: 'usr_1',
    },
    dedupeKey: `mx:${rawPath}`,
  });

  const bounceJob = (rawPath: string): IntakeJob => ({
    queue: 'bounce-processing',
    payload: { rawPath, sha256: '00', size: 1, ...envelope, rcptTo: ['b@bounce.example.test'] },
    dedupeKey: `mx:${rawPath}`,
  });

  it('commits intake jobs and outcomes on one thread, each caller answered after its commit', async () => {
    const thread = writer();
    const commit = thread.intake;
    const record = thread.deliveryReports;
    try {
      const results = await Promise.all([
        commit([intakeJob('/d/1.eml')]),
        commit([intakeJob('/d/2.eml'), bounceJob('/d/3.eml')]),
        record([{ ...base, recipient: 'intake-test@dest.test' }]),
      ]);
      assert.deepEqual(results, [1, 2, 1]);
      const reader = t.open();
      const keys = (
        await reader
          .selectFrom('jobs')
          .select(['queue', 'dedupe_key'])
          .where('dedupe_key', 'like', 'mx:%')
          .orderBy('dedupe_key')
          .execute()
      ).map((r) => `${r.queue} ${r.dedupe_key}`);
      assert.deepEqual(keys, [
        'inbound-processing mx:/d/1.eml',
        'inbound-processing mx:/d/2.eml',
        'bounce-processing mx:/d/3.eml',
      ]);
      assert.equal(await commit([intakeJob('/d/1.eml')]), 0, 'a replayed message adds nothing');
    } finally {
      await thread.close();
    }
  });

  it('acceptInbound through a thread that cannot write: rejects and leaves no raw file', async () => {
    const dataDir = await fs.mkdtemp(path.join(t.dataDir, 'data-'));
    const broken = writer(await unopenable());
    const recipients: RoutedRecipient[] = [
      {
        address: 'x@in.example.test',
        route: { kind: 'receive', domainId: 'dom_1', userId: 'usr_1' },
      },
    ];
    try {
      await assert.rejects(
        acceptInbound({
          commit: broken.intake,
          store: fileRawStore(dataDir),
          message: () => Readable.from([Buffer.from('Subject: x\r\n\r\nbody\r\n')]),
          envelope,
          recipients,
        }),
      );
      const days = await fs.readdir(path.join(dataDir, 'inbound'));
      assert.equal(days.length, 1, 'the raw file was written before the commit was tried');
      for (const day of days) assert.deepEqual(await fs.readdir(path.join(dataDir, 'inbound', day)), []);
    } finally {
      await broken.close();
    }
  });

  it('ends its thread when idle and starts a new one for the next report', async () => {
    const thread = writer(t.url, 100);
    try {
      assert.equal(thread.running, false);
      assert.equal(await thread.deliveryReports([{ ...base, recipient: 'idle-1@dest.test' }]), 1);
      assert.equal(thread.running, true);
      while (thread.running) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await thread.deliveryReports([{ ...base, recipient: 'idle-2@dest.test' }]), 1);
    } finally {
      await thread.close();
    }
  });
});
