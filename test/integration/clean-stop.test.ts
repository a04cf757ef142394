import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { startAppliance } from '../helpers/appliance';
import { startDnsServer } from '../helpers/dns-server';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';

const DOMAIN = 'stop.example.com';

describe('graceful stop', () => {
  it('after sends were accepted and delivered, SIGTERM closes every database connection (no -wal/-shm left)', async () => {
    const dns = await startDnsServer();
    const sink = await startSmtpSink();
    // SQLite only: what is checked is SQLite's -wal/-shm files.
    const app = await startAppliance({
      backend: 'sqlite',
      env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address },
    });
    try {
      const account = await app.api.registerWithKey();
      await addVerifiedDomain(app, dns, account.token, DOMAIN);
      // Each send passes the api's writer thread, the worker and the mta's writer thread.
      for (let i = 0; i < 3; i++) {
        const res = await app.api.post('/v1/emails', {
          token: account.apiKey,
          body: { from: `a@${DOMAIN}`, to: `r${i}@dest.test`, subject: `m${i}`, text: 'x' },
        });
        assert.equal(res.status, 202, res.text);
      }
      const deadline = Date.now() + 60_000;
      while (sink.messages.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.equal(sink.messages.length, 3, 'every message reached the sink');
      assert.ok(
        fs.readdirSync(app.dataDir).includes('mail.db-wal'),
        'the WAL exists while the appliance runs (what the check below would miss otherwise)',
      );

      const stopped = await app.stop();
      assert.equal(stopped.code, 0);
      assert.deepEqual(
        fs.readdirSync(app.dataDir).filter((f) => f.startsWith('mail.db-')),
        [],
        'the last connection to close checkpoints the WAL and removes -wal and -shm',
      );
    } finally {
      await app.kill();
      await sink.close();
      await dns.close();
    }
  });
});
