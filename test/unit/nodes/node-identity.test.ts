import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig, parseConfig } from '../../../src/config';
import { defaultNodeName } from '../../../src/config/config-table';
import { createLogger } from '../../../src/shared/logger';
import { lineLogger } from '../../../src/supervisor';
import { createHandlers } from '../../../src/worker/handlers';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

/** Issue 23 item 4: every node has a name, and the worker claims sends only beside an MTA. */
describe('node identity and roles', () => {
  it('NODE_NAME defaults to the host name, made safe, and is validated', () => {
    assert.equal(defaultNodeName('mail-1.example.org'), 'mail-1.example.org');
    assert.equal(defaultNodeName('weird host/name'), 'weird-host-name');
    assert.equal(defaultNodeName('-x'), 'x');
    assert.equal(defaultNodeName(''), 'node');
    assert.equal(defaultNodeName('a'.repeat(80)).length, 63);
    assert.equal(parseConfig({ NODE_NAME: 'mta-eu-1' }).nodeName, 'mta-eu-1');
    assert.ok(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(parseConfig({}).nodeName));
    assert.equal(parseConfig({}).nodeDeadAfterS, 600);
    for (const bad of ['a b', 'x'.repeat(64), '-lead', 'node"1', 'név']) {
      assert.throws(
        () => parseConfig({ NODE_NAME: bad }),
        (e: unknown) => e instanceof ConfigError && e.message.includes('NODE_NAME'),
        bad,
      );
    }
    assert.throws(() => parseConfig({ NODE_DEAD_AFTER_S: '5' }), /NODE_DEAD_AFTER_S/);
  });

  it('every log line carries the node, the supervisor’s too', () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        cb();
      },
    });
    const log = createLogger({ process: 'worker', node: 'node-a', destination });
    log.info({ event: 'one' });
    log.child({ module: 'x' }).warn({ event: 'two' });
    assert.deepEqual(
      lines.map((l) => [l.event, l.node, l.process]),
      [
        ['one', 'node-a', 'worker'],
        ['two', 'node-a', 'worker'],
      ],
    );
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (s: string) => written.push(s) > 0;
    try {
      lineLogger({ level: 'info', process: 'supervisor', node: 'node-a' }).info({ event: 'x' }, 'm');
    } finally {
      process.stdout.write = write;
    }
    assert.equal((JSON.parse(written[0] ?? '{}') as { node?: string }).node, 'node-a');
  });

  describe('the worker’s queues by role', () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb();
    });
    after(() => t.close());

    it('claims email-send only on a node that runs an mta (any node with the worker’s own sender); the node sweep anywhere', () => {
      const { config } = loadConfig({
        DATA_DIR: t.dataDir,
        SECRET_KEY: 'x'.repeat(40),
        // The deprecated path: the worker hands mail to its own node's MTA.
        OUTBOUND_SENDER: 'haraka',
      });
      const full = createHandlers({ db: t.db, config, roles: ['api', 'worker', 'mta'] });
      const noMta = createHandlers({ db: t.db, config, roles: ['api', 'worker'] });
      for (const q of ['email-send', 'email-send:failed', 'node-sweep', 'mta-outcome'] as const) {
        assert.equal(typeof full[q], 'function', q);
      }
      assert.equal(noMta['email-send'], undefined);
      assert.equal(noMta['email-send:failed'], undefined);
      assert.equal(typeof noMta['mta-outcome'], 'function');
      assert.equal(typeof noMta['node-sweep'], 'function');
      // The worker's own sender (OUTBOUND_SENDER=worker) needs no MTA beside it.
      const sender = { send: () => Promise.resolve([]), close: () => undefined };
      const own = createHandlers({
        db: t.db,
        config: { ...config, outboundSender: 'worker' },
        roles: ['api', 'worker'],
        sender,
      });
      assert.equal(typeof own['email-send'], 'function');
      assert.equal(typeof own['email-send:failed'], 'function');
    });
  });
});
