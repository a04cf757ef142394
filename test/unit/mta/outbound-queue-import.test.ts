// The start-up import of an old Haraka outbound queue (src/mta/outbound-queue-import.ts) on a real
// database and real queue files written as Haraka 3.3.4 writes them: which recipients get a job,
// when it is due, what an import run twice does (the kill between the commit and the removal),
// and what is set aside instead of sent. End to end (a real Haraka queue, then the worker's
// sender): test/integration/outbound-queue-upgrade.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verpAddress } from '../../../src/mail/verp-address';
import { parseEmailSendPayload } from '../../../src/modules/delivery/send-job';
import { parseQueueFileName } from '../../../src/mta/outbound-queue-file';
import { importOutboundQueue } from '../../../src/mta/outbound-queue-import';
import { captureLog } from '../../helpers/capture-log';
import type { Account } from '../../helpers/email-fixtures';
import { emailRow, insertAccount, insertEmail } from '../../helpers/email-fixtures';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

let counter = 0;

/** A queue file as outbound/index.js build_todo writes it; returns its name. */
function writeQueueFile(
  dir: string,
  q: { from: string; to: readonly string[]; attempts?: number; nextAttempt?: number },
): string {
  const now = Date.now();
  const name = [
    now,
    q.nextAttempt ?? now,
    q.attempts ?? 0,
    4242,
    `uid${++counter}`,
    counter,
    'old\\137host',
  ].join('_');
  const address = (a: string) => {
    const [user, host] = a.split('@');
    return { original: `<${a}>`, original_host: host, host, user };
  };
  const todo = {
    queue_time: now,
    domain: q.to[0]?.split('@')[1],
    rcpt_to: q.to.map(address),
    mail_from: q.from === '' ? { original: '<>', user: null, host: null } : address(q.from),
    notes: { skip_plugins: [], authentication_results: [] },
    uuid: 'B1E2.1',
    force_tls: false,
  };
  const header = Buffer.from(`\n${JSON.stringify(todo, null, '\t')}\n`);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length, 0);
  fs.writeFileSync(
    path.join(dir, name),
    Buffer.concat([length, header, Buffer.from('Subject: hi\r\n\r\nhi\r\n')]),
  );
  return name;
}

describe('outbound queue import: Haraka queue files become email-send jobs', () => {
  let t: TestDb;
  let account: Account;
  let queueDir: string;

  before(async () => {
    t = await createTestDb();
    account = await insertAccount(t.db);
    queueDir = path.join(t.dataDir, 'mta-queue');
    fs.mkdirSync(queueDir);
  });
  after(() => t.close());

  const run = async () => {
    const log = captureLog();
    const counts = await importOutboundQueue({ db: t.db, dataDir: t.dataDir, logger: log.logger });
    return { counts, log };
  };
  const jobsOf = (emailId: string) =>
    t.db
      .selectFrom('jobs')
      .select(['queue', 'payload', 'run_at', 'dedupe_key', 'state'])
      .where('payload', 'like', `%${emailId}%`)
      .execute();

  it("enqueues the file's waiting recipients, due when Haraka would have tried, and removes the file", async () => {
    const id = await insertEmail(t.db, account, {
      status: 'deferred',
      recipients: [
        { address: 'a@one.test', status: 'deferred' },
        { address: 'b@one.test', status: 'delivered' },
        { address: 'c@one.test', status: 'sent' },
        { address: 'd@two.test', status: 'deferred' },
      ],
    });
    await t.db.updateTable('emails').set({ mta_node: 'old-node' }).where('id', '=', id).execute();
    const due = Date.parse('2036-01-01T00:00:00Z');
    const name = writeQueueFile(queueDir, {
      from: verpAddress(id, account.domain),
      // b was delivered in an earlier transaction: Haraka kept only the others of one.test here.
      to: ['A@one.test', 'c@one.test'],
      attempts: 2,
      nextAttempt: due,
    });
    const { counts, log } = await run();
    assert.deepEqual(counts, { files: 1, jobs: 1, recipients: 2, alreadyImported: 0, ended: 0, setAside: 0 });
    const [job, ...more] = await jobsOf(id);
    assert.equal(more.length, 0);
    assert.equal(job?.queue, 'email-send');
    assert.equal(job?.state, 'queued');
    assert.deepEqual(parseEmailSendPayload(JSON.parse(job?.payload ?? '')), {
      emailId: id,
      deferred: 2,
      recipients: ['a@one.test', 'c@one.test'],
    });
    assert.equal(new Date(job?.run_at ?? '').getTime(), due);
    assert.equal(job?.dedupe_key, `${id}:haraka-queue:1`, 'the message and its hand-off to Haraka');
    assert.equal((await emailRow(t.db, id)).mta_node, null, 'the job table holds it now, no node');
    assert.deepEqual(fs.readdirSync(queueDir), []);
    assert.equal(log.events('outbound_queue_imported').length, 1);

    // Killed after that commit, before the file's removal: the next start imports it again.
    writeQueueFileAgain(queueDir, name, id, account.domain);
    const again = await run();
    assert.deepEqual(again.counts, {
      files: 1,
      jobs: 0,
      recipients: 0,
      alreadyImported: 1,
      ended: 0,
      setAside: 0,
    });
    assert.equal((await jobsOf(id)).length, 1, 'still one job: sent once');
    assert.deepEqual(fs.readdirSync(queueDir), []);
  });

  it("one job per message: a recipient in two files (Haraka's split, cut short) is sent once", async () => {
    const id = await insertEmail(t.db, account, {
      status: 'deferred',
      recipients: [
        { address: 'ok@six.test', status: 'delivered' },
        { address: 'wait@six.test', status: 'deferred' },
        { address: 'far@seven.test', status: 'sent' },
      ],
    });
    const from = verpAddress(id, account.domain);
    // The original (its delivered hook ran, its removal did not), the split-off file, another domain's.
    const original = writeQueueFile(queueDir, { from, to: ['ok@six.test', 'wait@six.test'], attempts: 0 });
    const split = writeQueueFile(queueDir, { from, to: ['wait@six.test'], attempts: 1, nextAttempt: 2_000 });
    writeQueueFile(queueDir, { from, to: ['far@seven.test'], attempts: 0, nextAttempt: 1_000 });
    const { counts } = await run();
    assert.deepEqual(counts, { files: 3, jobs: 1, recipients: 2, alreadyImported: 0, ended: 0, setAside: 0 });
    const [job, ...more] = await jobsOf(id);
    assert.equal(more.length, 0);
    assert.deepEqual(JSON.parse(job?.payload ?? ''), {
      emailId: id,
      deferred: 1,
      recipients: ['wait@six.test', 'far@seven.test'],
    });
    assert.deepEqual(fs.readdirSync(queueDir), []);

    // Killed after the commit with two of the files still there: the next start sends nothing more.
    writeQueueFileAgain(queueDir, original, id, account.domain);
    writeQueueFileAgain(queueDir, split, id, account.domain);
    const again = await run();
    assert.deepEqual(again.counts, {
      files: 2,
      jobs: 0,
      recipients: 0,
      alreadyImported: 1,
      ended: 0,
      setAside: 0,
    });
    assert.equal((await jobsOf(id)).length, 1);

    // A later hand-off of the same message to Haraka (a resend) is a job of its own.
    await t.db.updateTable('emails').set({ attempts: 2 }).where('id', '=', id).execute();
    writeQueueFile(queueDir, { from, to: ['wait@six.test'] });
    assert.equal((await run()).counts.jobs, 1);
    assert.equal((await jobsOf(id)).length, 2);
  });

  it('a file due already is due now; a never-tried file is attempt 0 of its recipients', async () => {
    const id = await insertEmail(t.db, account, { status: 'sent', to: ['x@three.test'] });
    writeQueueFile(queueDir, { from: verpAddress(id, account.domain), to: ['x@three.test'], nextAttempt: 1 });
    const before = Date.now();
    await run();
    const [job] = await jobsOf(id);
    assert.ok(new Date(job?.run_at ?? '').getTime() >= before - 1000);
    assert.deepEqual(JSON.parse(job?.payload ?? ''), {
      emailId: id,
      deferred: 0,
      recipients: ['x@three.test'],
    });
  });

  it('removes without a job a file whose recipients ended or went back to the job table', async () => {
    const id = await insertEmail(t.db, account, {
      status: 'bounced',
      recipients: [
        { address: 'gone@four.test', status: 'bounced' },
        { address: 'back@four.test', status: 'queued' },
      ],
    });
    writeQueueFile(queueDir, {
      from: verpAddress(id, account.domain),
      to: ['gone@four.test', 'back@four.test'],
    });
    const { counts } = await run();
    assert.equal(counts.ended, 1);
    assert.equal(counts.jobs, 0);
    assert.deepEqual(await jobsOf(id), []);
    assert.deepEqual(fs.readdirSync(queueDir), []);
  });

  it('sets aside, unsent and logged, every file that names no message of ours or cannot be read', async () => {
    const id = await insertEmail(t.db, account, { status: 'sent', to: ['y@five.test'] });
    const other = await insertAccount(t.db);
    const names = [
      writeQueueFile(queueDir, { from: 'someone@elsewhere.test', to: ['y@five.test'] }),
      writeQueueFile(queueDir, { from: '', to: ['y@five.test'] }),
      writeQueueFile(queueDir, {
        from: verpAddress('email_01jq0000000000000000000000', account.domain),
        to: ['y@five.test'],
      }),
      writeQueueFile(queueDir, { from: verpAddress(id, other.domain), to: ['y@five.test'] }),
      writeQueueFile(queueDir, { from: verpAddress(id, account.domain), to: ['stranger@five.test'] }),
    ];
    const damaged = '1_1_0_4242_dmg_1_host';
    fs.writeFileSync(path.join(queueDir, damaged), Buffer.from([0, 0, 0, 90, 0x7b]));
    const partial = '__tmp__.1_1_0_4242_tmp_1_host';
    fs.writeFileSync(path.join(queueDir, partial), '');
    const { counts, log } = await run();
    assert.deepEqual(counts, { files: 7, jobs: 0, recipients: 0, alreadyImported: 0, ended: 0, setAside: 7 });
    assert.deepEqual(await jobsOf(id), []);
    assert.deepEqual(fs.readdirSync(queueDir), []);
    assert.deepEqual(
      fs.readdirSync(path.join(t.dataDir, 'mta-queue-unmatched')).sort(),
      [...names, damaged, partial].sort(),
    );
    const reasons = log.events('outbound_queue_file_set_aside').map((l) => String(l.reason));
    assert.equal(reasons.length, 7);
    assert.ok(
      reasons.some((r) => r.startsWith('damaged: header of 90 bytes')),
      reasons.join('\n'),
    );
    assert.ok(reasons.includes('no such message'), reasons.join('\n'));
  });

  it('does nothing, and logs nothing, when there is no queue', async () => {
    const empty = await createTestDb();
    try {
      const log = captureLog();
      const counts = await importOutboundQueue({ db: empty.db, dataDir: empty.dataDir, logger: log.logger });
      assert.equal(counts.files, 0);
      assert.deepEqual(log.lines, []);
    } finally {
      await empty.close();
    }
  });

  it("reads Haraka's file names, and refuses the others", () => {
    assert.deepEqual(parseQueueFileName('1796414089279_1796414690013_1_10659_ogSv5u_6_vm'), {
      nextAttempt: 1796414690013,
      attempts: 1,
    });
    for (const bad of ['1484878079415_0_12345_8888.mta1.example.com', 'a_b_c_d_e_f_g', 'x'])
      assert.equal(parseQueueFileName(bad), undefined, bad);
  });

  it('reads back a taken-over payload strictly', () => {
    const emailId = 'email_01jq0000000000000000000000';
    assert.deepEqual(parseEmailSendPayload({ emailId, deferred: 0, recipients: ['a@b.test'] }), {
      emailId,
      deferred: 0,
      recipients: ['a@b.test'],
    });
    assert.equal(parseEmailSendPayload({ emailId, deferred: 0 }), undefined, 'a plain retry counts from 1');
    for (const recipients of [[], [1], 'a@b.test', Array.from({ length: 1001 }, () => 'a@b.test')])
      assert.equal(
        parseEmailSendPayload({ emailId, deferred: 1, recipients }),
        undefined,
        JSON.stringify(recipients),
      );
    assert.equal(parseEmailSendPayload({ emailId, deferred: -1, recipients: ['a@b.test'] }), undefined);
  });
});

/** A file under a name it had before (what a kill before its removal leaves). */
function writeQueueFileAgain(dir: string, name: string, emailId: string, domain: string): void {
  const tmp = fs.mkdtempSync(path.join(dir, '..', 'again-'));
  const written = writeQueueFile(tmp, {
    from: verpAddress(emailId, domain),
    to: ['wait@six.test', 'a@one.test'],
  });
  fs.renameSync(path.join(tmp, written), path.join(dir, name));
  fs.rmSync(tmp, { recursive: true });
}
