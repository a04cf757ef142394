// mailroom-guard on the real Haraka. No receiving domain exists yet, so mailroom-rcpt refuses
// every recipient and DATA is unreachable through the mta process alone; this test renders the
// same configuration, adds a stand-in for the future domain lookup (a plugin listed before
// mailroom-rcpt that accepts @accept.test and records what reaches the queue), and runs Haraka
// through the same spawnHaraka() the mta process uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../src/config';
import type { HarakaChild } from '../../src/mta/haraka-process';
import { spawnHaraka, waitForGreeting } from '../../src/mta/haraka-process';
import { renderMtaConfig } from '../../src/mta/render-config';
import { createLogger } from '../../src/shared/logger';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import { SmtpClient } from '../helpers/smtp-client';

const MAX_BYTES = 4096;

/** The stand-in: accepts recipients at accept.test, queues by appending the envelope to a file. */
function standInPlugin(queueLog: string): string {
  return `'use strict';
const fs = require('node:fs');
const constants = require(${JSON.stringify(require.resolve('haraka-constants'))});
exports.register = function () {
  this.register_hook('rcpt', 'acceptTestDomain');
  this.register_hook('queue', 'record');
};
exports.acceptTestDomain = function (next, connection, params) {
  next(params[0].host === 'accept.test' ? constants.ok : constants.cont);
};
exports.record = function (next, connection) {
  const t = connection.transaction;
  fs.appendFileSync(${JSON.stringify(queueLog)}, JSON.stringify({ from: t.mail_from.address, to: t.rcpt_to.map((r) => r.address) }) + '\\n');
  next(constants.ok);
};
`;
}

function addStandIn(harakaDir: string, queueLog: string): void {
  const dir = path.join(harakaDir, 'plugins', 'test-accept');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"test-accept","main":"index.js"}');
  fs.writeFileSync(path.join(dir, 'index.js'), standInPlugin(queueLog));
  const list = path.join(harakaDir, 'config', 'plugins');
  const plugins = fs.readFileSync(list, 'utf8').replace(/^mailroom-rcpt$/m, 'test-accept\nmailroom-rcpt');
  fs.writeFileSync(list, plugins);
}

function queued(queueLog: string): { from: string; to: string[] }[] {
  if (!fs.existsSync(queueLog)) return [];
  return fs
    .readFileSync(queueLog, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { from: string; to: string[] });
}

describe('mailroom-guard on Haraka', () => {
  let dns: FakeDns;
  let dataDir: string;
  let port: number;
  let haraka: HarakaChild;
  let queueLog: string;

  before(async () => {
    dns = await startDnsServer();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-guard-'));
    const [smtp, inject] = (await freePorts(2)) as [number, number];
    port = smtp;
    const config = parseConfig({
      DATA_DIR: dataDir,
      SMTP_PORT: String(smtp),
      MTA_INJECT_PORT: String(inject),
      // The injection listener's limits are among the cases (the deprecated OUTBOUND_SENDER=haraka).
      OUTBOUND_SENDER: 'haraka',
      SUBMISSION_PORT: '0',
      BIND_ADDRESS: '127.0.0.1',
      MAIL_HOSTNAME: 'mx.test.example',
      DNS_SERVERS: dns.address,
      EMAIL_MAX_SIZE_BYTES: String(MAX_BYTES),
      LOG_LEVEL: 'warn',
    });
    const rendered = renderMtaConfig(config);
    queueLog = path.join(dataDir, 'queued.jsonl');
    addStandIn(rendered.harakaDir, queueLog);
    const logger = createLogger({ level: 'warn', process: 'mta', destination: { write: () => undefined } });
    haraka = spawnHaraka(rendered.harakaDir, logger);
    const ready = await waitForGreeting('127.0.0.1', inject, 20_000, haraka.exited);
    assert.ok(ready.ok, ready.ok ? '' : ready.error);
  });

  after(async () => {
    await haraka.stop(3_000);
    await dns.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A session up to the 354, ready for message bytes. */
  async function openData(rcpt = 'someone@accept.test'): Promise<SmtpClient> {
    const { client } = await SmtpClient.connect(port);
    assert.equal((await client.command('EHLO client.test')).code, 250);
    assert.equal((await client.command('MAIL FROM:<sender@example.org>')).code, 250);
    assert.equal((await client.command(`RCPT TO:<${rcpt}>`)).code, 250);
    assert.equal((await client.command('DATA')).code, 354);
    return client;
  }

  it('queues a clean message (the stand-in works, the guard lets it through)', async () => {
    const client = await openData('clean@accept.test');
    const reply = await client.raw('Subject: clean\r\n\r\nline one\r\n..leading dot\r\n.\r\n');
    assert.equal(reply.code, 250, reply.raw);
    client.close();
    assert.deepEqual(queued(queueLog).at(-1)?.to, ['clean@accept.test']);
  });

  it('refuses a bare CR with 550 5.6.0 and keeps the session usable', async () => {
    const client = await openData('bare-cr@accept.test');
    const reply = await client.raw('Subject: cr\r\n\r\nbefore\rafter\r\n.\r\n');
    assert.equal(reply.code, 550, reply.raw);
    assert.match(reply.raw, /^550 5\.6\.0 .*bare CR/);
    assert.equal((await client.command('RSET')).code, 250);
    client.close();
    assert.equal(queued(queueLog).filter((q) => q.to.includes('bare-cr@accept.test')).length, 0);
  });

  it('refuses <CR>.<CR><LF> smuggling with 550 and hangs up; the smuggled mail never runs', async () => {
    const client = await openData('victim@accept.test');
    const smuggled =
      'Subject: hi\r\n\r\nhello\r.\r\nMAIL FROM:<evil@example.org>\r\nRCPT TO:<smuggled@accept.test>\r\nDATA\r\nevil\r\n.\r\n';
    const reply = await client.raw(smuggled);
    assert.equal(reply.code, 550, reply.raw);
    assert.match(reply.raw, /end-of-data/);
    await client.closed;
    assert.deepEqual(client.unread, []);
    assert.equal(queued(queueLog).filter((q) => q.to.includes('smuggled@accept.test')).length, 0);
    assert.equal(queued(queueLog).filter((q) => q.to.includes('victim@accept.test')).length, 0);
  });

  it('leaves <LF>.<CR><LF> and bare LF to Haraka 3.3.4, which answers 451 and hangs up', async () => {
    for (const body of ['hello\n.\r\nMAIL FROM:<evil@example.org>\r\n', 'bare\nlf\r\n']) {
      const client = await openData('lf@accept.test');
      const reply = await client.raw(`Subject: lf\r\n\r\n${body}.\r\n`);
      assert.equal(reply.code, 451, reply.raw);
      await client.closed;
    }
    assert.equal(queued(queueLog).filter((q) => q.to.includes('lf@accept.test')).length, 0);
  });

  it('answers oversize with 552 5.3.4 and keeps the session usable', async () => {
    const client = await openData('big@accept.test');
    const body = `${'x'.repeat(76)}\r\n`.repeat(Math.ceil((MAX_BYTES * 2) / 78));
    const reply = await client.raw(`Subject: big\r\n\r\n${body}.\r\n`);
    assert.equal(reply.code, 552, reply.raw);
    assert.match(reply.raw, /^552 5\.3\.4 /);
    assert.equal((await client.command('MAIL FROM:<sender@example.org>')).code, 250);
    client.close();
    assert.equal(queued(queueLog).filter((q) => q.to.includes('big@accept.test')).length, 0);
  });

  it('accepts 100 recipients and answers the 101st with 452 4.5.3', async () => {
    const { client } = await SmtpClient.connect(port);
    await client.command('EHLO client.test');
    await client.command('MAIL FROM:<sender@example.org>');
    for (let i = 1; i <= 100; i++) {
      assert.equal((await client.command(`RCPT TO:<r${i}@accept.test>`)).code, 250, `recipient ${i}`);
    }
    const over = await client.command('RCPT TO:<r101@accept.test>');
    assert.equal(over.code, 452, over.raw);
    assert.match(over.raw, /^452 4\.5\.3 /);
    assert.equal((await client.command('DATA')).code, 354);
    assert.equal((await client.raw('Subject: many\r\n\r\nhi\r\n.\r\n')).code, 250);
    client.close();
    assert.equal(queued(queueLog).at(-1)?.to.length, 100);
  });
});
