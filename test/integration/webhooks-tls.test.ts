import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { waitUntil } from '../helpers/wait-until';
import { verifySignature } from '../helpers/webhook-receiver';
import { emit, READY_MARKER } from '../helpers/webhook-worker';
import { makeSelfSignedCert } from '../helpers/tls-cert';

const WORKER_SCRIPT = path.join(__dirname, '..', 'helpers', 'webhook-worker.js');

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Seen {
  servername: string | false | null;
  host: string | undefined;
  signature: string | undefined;
  body: string;
}

/**
 * Pinning the checked address must not weaken TLS: the certificate is still
 * checked against the URL's host name, which is also what SNI carries.
 */
describe(
  'webhooks over https to a pinned address',
  { skip: !hasOpenssl() && 'openssl not installed' },
  () => {
    let dns: FakeDns;
    let app: Appliance;
    let db: Db;
    let worker: ChildProcess;
    let server: https.Server;
    let port: number;
    let apiKey: string;
    let userId: string;
    const seen: Seen[] = [];

    before(async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-tls-'));
      const { keyFile: key, certFile: cert } = makeSelfSignedCert({
        dir,
        name: 'tls',
        subject: '/CN=tls.example.com',
        altNames: ['DNS:tls.example.com'],
        days: 1,
      });
      server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen.push({
            servername: (req.socket as { servername?: string | false | null }).servername ?? null,
            host: req.headers.host,
            signature: req.headers['x-mail-signature'] as string | undefined,
            body: Buffer.concat(chunks).toString(),
          });
          res.end('ok');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
      port = (server.address() as AddressInfo).port;

      dns = await startDnsServer();
      dns.set('tls.example.com', 'A', ['127.0.0.2']);
      dns.set('wrong-name.example.com', 'A', ['127.0.0.2']);
      app = await startAppliance({
        processes: ['api'],
        env: { WEBHOOK_ALLOW_PRIVATE: 'true', DNS_SERVERS: dns.address },
      });
      ({ apiKey, userId } = await app.api.registerWithKey());
      db = openApplianceDb(app);
      // The test CA reaches the worker the way an operator's private CA would: NODE_EXTRA_CA_CERTS.
      worker = spawn(process.execPath, [WORKER_SCRIPT], {
        env: {
          ...app.env,
          WEBHOOK_ALLOWED_CIDRS: '127.0.0.2',
          WEBHOOK_MAX_ATTEMPTS: '1',
          NODE_EXTRA_CA_CERTS: cert,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => {
        let out = '';
        worker.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes(READY_MARKER)) resolve();
        });
      });
    });
    after(async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
      await db.destroy();
      await app.stop();
      await dns.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const hook = async (url: string) => {
      const res = await app.api.post<{ id: string; secret: string }>('/v1/webhooks', {
        token: apiKey,
        body: { url, events: ['email.sent'] },
      });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const attempts = async (id: string) =>
      (
        await app.api.get<{ attempts: { succeeded: boolean; error: string | null }[] }>(
          `/v1/webhooks/${id}`,
          {
            token: apiKey,
          },
        )
      ).body.attempts;

    it('sends SNI and checks the certificate for the URL host; a name the certificate lacks fails', async () => {
      const good = await hook(`https://tls.example.com:${port}/hook`);
      const wrong = await hook(`https://wrong-name.example.com:${port}/hook`);
      await emit(db, userId, 'email.sent');
      await waitUntil(
        'both attempts',
        async () => (await attempts(good.id)).length + (await attempts(wrong.id)).length === 2,
      );

      assert.equal(seen.length, 1);
      assert.equal(seen[0]?.servername, 'tls.example.com');
      assert.equal(seen[0]?.host, `tls.example.com:${port}`);
      assert.ok(verifySignature(good.secret, seen[0]?.signature, seen[0]?.body ?? ''));
      assert.equal((await attempts(good.id))[0]?.succeeded, true);
      const failed = (await attempts(wrong.id))[0];
      assert.equal(failed?.succeeded, false);
      assert.match(failed?.error ?? '', /wrong-name\.example\.com.*(altnames|cert)/i);
    });
  },
);
