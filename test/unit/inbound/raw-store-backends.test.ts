// Issue 23 item 3: raw inbound mail and bounce reports are readable by every node. On
// PostgreSQL the bytes are `raw_messages` rows committed with the job that names them (no
// file under DATA_DIR/inbound); on SQLite they stay files, exactly as before. The same
// paths run on both: MX intake, the inbound job, GET/DELETE /v1/inbound/{id}(/raw),
// POST /internal/bounces and its job, and retention's orphan sweep.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DNSResolver } from 'mailauth';
import { parseConfig } from '../../../src/config';
import type { Db } from '../../../src/db/connect';
import { dialectOf } from '../../../src/db/connect';
import { createBounceHandler } from '../../../src/modules/bounces/bounce-job';
import { processInbound } from '../../../src/modules/inbound/inbound.job';
import type { InboundIntakePayload } from '../../../src/modules/inbound/intake-payload';
import { commitStagedRaws, rawStoreFor } from '../../../src/modules/inbound/raw-store-of';
import { runRetention } from '../../../src/modules/retention/retention.jobs';
import { acceptInbound, enqueueIntakeJobs } from '../../../src/mta/inbound-intake';
import type { ApiNode, BackendDb } from '../../helpers/backend-api';
import { BACKENDS, TEST_INTERNAL_TOKEN, openBackendDb, startApiNode } from '../../helpers/backend-api';
import { captureLog } from '../../helpers/capture-log';
import { KILL_ME_MARKER } from '../../helpers/intake-kill-process';
import { handlerJob, jobContext } from '../../helpers/job-context';
import { requirePostgres } from '../../helpers/postgres';

const MESSAGE = Buffer.from(
  'From: alice@example.org\r\nTo: sales@inbox.example.com\r\nSubject: Shared\r\n\r\nRead me from any node.\r\n',
);

/** No record anywhere: authentication gives none/temperror, which is not what is tested here. */
const noDns: DNSResolver = () => Promise.reject(Object.assign(new Error('no record'), { code: 'ENOTFOUND' }));

function inboundFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'inbound');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((day) => fs.readdirSync(path.join(root, day)));
}

async function count(db: Db, table: 'raw_messages' | 'jobs' | 'inbound_messages'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

for (const backend of BACKENDS) {
  const options = backend === 'postgres' ? requirePostgres() : {};

  describe(`raw messages through the raw store (${backend})`, options, () => {
    let shared: BackendDb;
    let nodes: ApiNode[];
    let token: string;
    let userId: string;

    before(async () => {
      shared = await openBackendDb(backend);
      nodes = [await startApiNode(shared.nodes[0], shared), await startApiNode(shared.nodes[1], shared)];
      const reg = await nodes[0]!.api.post<{ token: string; user: { id: string } }>('/v1/auth/register', {
        body: { email: `raw-${backend}@example.com`, password: 'a long password', name: 'Raw' },
      });
      assert.equal(reg.status, 201, reg.text);
      token = reg.body.token;
      userId = reg.body.user.id;
    });
    after(async () => {
      for (const n of nodes) await n.close();
      await shared.close();
    });

    it('MX intake on one node: readable through the other, deleted with its message', async () => {
      const [mx, other] = shared.nodes;
      const store = rawStoreFor(mx, shared.dataDir);
      assert.equal(store.kind, backend === 'postgres' ? 'database' : 'file');
      const jobs = await acceptInbound({
        commit: (intake) => mx.transaction().execute((trx) => enqueueIntakeJobs(trx, intake)),
        store,
        message: () => Readable.from([MESSAGE]),
        envelope: {
          mailFrom: 'alice@example.org',
          remoteIp: '192.0.2.1',
          helo: 'mx.example.org',
          receivedAt: new Date().toISOString(),
        },
        recipients: [
          { address: 'sales@inbox.example.com', route: { kind: 'receive', domainId: 'dom_gone', userId } },
        ],
      });
      assert.equal(jobs, 1);
      const job = await other
        .selectFrom('jobs')
        .select('payload')
        .where('queue', '=', 'inbound-processing')
        .executeTakeFirstOrThrow();
      const payload = JSON.parse(job.payload) as InboundIntakePayload;
      if (backend === 'postgres') {
        assert.match(payload.rawPath, /^db:raw_/);
        assert.deepEqual(inboundFiles(shared.dataDir), [], 'no file under DATA_DIR/inbound on PostgreSQL');
        assert.equal(await count(other, 'raw_messages'), 1);
      } else {
        assert.ok(payload.rawPath.startsWith(path.join(shared.dataDir, 'inbound')));
        assert.equal(inboundFiles(shared.dataDir).length, 1);
        assert.equal(await count(other, 'raw_messages'), 0, 'SQLite keeps files');
      }

      // The worker on the other node processes it and the first node's api serves the raw bytes.
      const outcome = await processInbound(
        {
          db: other,
          writes: { run: (fn) => other.transaction().execute(fn) },
          resolver: noDns,
          mailHostname: 'mx.test',
          rawStore: rawStoreFor(other, shared.dataDir),
        },
        payload,
      );
      assert.equal(outcome.kind, 'stored');
      const id = outcome.kind === 'stored' ? outcome.inboundId : '';
      for (const node of nodes) {
        const res = await fetch(`${node.api.baseUrl}/v1/inbound/${id}/raw`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'message/rfc822');
        assert.deepEqual(Buffer.from(await res.arrayBuffer()), MESSAGE);
      }

      const del = await nodes[1]!.api.delete(`/v1/inbound/${id}`, { token });
      assert.equal(del.status, 200, del.text);
      assert.equal(await count(mx, 'raw_messages'), 0);
      assert.deepEqual(inboundFiles(shared.dataDir), []);
    });

    it('POST /internal/bounces: the report and its job in one commit, read and removed by the bounce job', async () => {
      const [db] = shared.nodes;
      const report = Buffer.from('From: MAILER-DAEMON@example.net\r\nSubject: not a report\r\n\r\nhello\r\n');
      const res = await fetch(`${nodes[0]!.api.baseUrl}/internal/bounces`, {
        method: 'POST',
        headers: { 'x-internal-token': TEST_INTERNAL_TOKEN, 'content-type': 'message/rfc822' },
        body: report,
      });
      assert.equal(res.status, 202, await res.text());
      const job = await db
        .selectFrom('jobs')
        .select(['id', 'payload'])
        .where('queue', '=', 'bounce-processing')
        .executeTakeFirstOrThrow();
      const payload = JSON.parse(job.payload) as { rawPath: string };
      assert.equal(payload.rawPath.startsWith('db:'), backend === 'postgres');
      assert.equal(await count(db, 'raw_messages'), backend === 'postgres' ? 1 : 0);
      assert.deepEqual(await rawStoreFor(db, shared.dataDir).get(payload.rawPath), report);

      const log = captureLog();
      const handler = createBounceHandler({ db: shared.nodes[1], config: nodes[1]!.config });
      await handler(handlerJob('bounce-processing', JSON.parse(job.payload)), jobContext(log));
      assert.equal(await rawStoreFor(db, shared.dataDir).get(payload.rawPath), undefined);
      assert.equal(await count(db, 'raw_messages'), 0);
    });

    it('retention removes unreferenced raw copies once old enough, keeps referenced ones', async () => {
      const [db] = shared.nodes;
      const store = rawStoreFor(db, shared.dataDir);
      // An orphan (its job gone) and a copy whose job is still queued.
      const orphan = await store.put(Buffer.from('Subject: orphan\r\n\r\nx\r\n'));
      await db.transaction().execute((trx) => commitStagedRaws(trx, [orphan]));
      await acceptInbound({
        commit: (intake) => db.transaction().execute((trx) => enqueueIntakeJobs(trx, intake)),
        store,
        message: () => Readable.from([MESSAGE]),
        envelope: { mailFrom: '', remoteIp: null, helo: null, receivedAt: new Date().toISOString() },
        recipients: [
          { address: 'sales@inbox.example.com', route: { kind: 'receive', domainId: 'dom_x', userId } },
        ],
      });
      const kept = JSON.parse(
        (
          await db
            .selectFrom('jobs')
            .select('payload')
            .where('queue', '=', 'inbound-processing')
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow()
        ).payload,
      ) as InboundIntakePayload;
      const config = nodes[0]!.config;
      // Young copies are never touched, referenced or not.
      const early = await runRetention({ db, config, now: new Date() });
      assert.equal(early.orphans.deleted, 0);
      const later = await runRetention({ db, config, now: new Date(Date.now() + 86_400_000) });
      assert.equal(later.orphans.deleted, 1);
      assert.equal(await store.get(orphan.ref), undefined);
      assert.deepEqual(await store.get(kept.rawPath), MESSAGE);
      assert.equal(dialectOf(db), backend);
    });
  });
}

for (const backend of BACKENDS) {
  const options = backend === 'postgres' ? requirePostgres() : {};

  describe(`SIGKILL between the raw copy and the job's commit (${backend})`, options, () => {
    let shared: BackendDb;
    before(async () => {
      shared = await openBackendDb(backend);
    });
    after(async () => {
      await shared.close();
    });

    it(
      backend === 'postgres'
        ? 'leaves nothing: the row was in the uncommitted transaction'
        : 'leaves an unreferenced file (swept by retention) and no job, as before',
      async () => {
        const child = spawn(
          process.execPath,
          [path.join(__dirname, '../../helpers/intake-kill-process.js')],
          {
            env: {
              ...process.env,
              INTAKE_DB_URL: shared.url,
              INTAKE_DATA_DIR: shared.dataDir,
              INTAKE_USER_ID: 'usr_killed',
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          child.on('exit', (_c, s) => resolve(s)),
        );
        let out = '';
        for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
          out += chunk.toString();
          if (out.includes(KILL_ME_MARKER)) break;
        }
        assert.ok(out.includes(KILL_ME_MARKER), `the child never reached the commit: ${out}`);
        child.kill('SIGKILL');
        assert.equal(await exited, 'SIGKILL');

        const [db] = shared.nodes;
        await waitForNoBackend(db);
        assert.equal(await count(db, 'jobs'), 0);
        assert.equal(await count(db, 'raw_messages'), 0);
        assert.equal(inboundFiles(shared.dataDir).length, backend === 'postgres' ? 0 : 1);
        if (backend === 'sqlite') {
          const swept = await runRetention({
            db,
            config: { ...parseConfig({ DATA_DIR: shared.dataDir }) },
            now: new Date(Date.now() + 86_400_000),
          });
          assert.equal(swept.orphans.deleted, 1);
        }
      },
    );
  });
}

/**
 * PostgreSQL rolls a dead client's transaction back once it notices the closed socket;
 * reads before that see nothing of it either (it never committed), but its locks linger.
 */
async function waitForNoBackend(db: Db): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (let i = 0; i < 100; i++) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(
      db,
    );
    if (rows[0]?.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
