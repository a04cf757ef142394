import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { probeOutbound } from '../../../../src/cli/doctor/outbound-check';
import { freePort } from '../../../helpers/free-port';
import type { SmtpSink } from '../../../helpers/smtp-sink';
import { startSmtpSink } from '../../../helpers/smtp-sink';
import { close, listen, peer } from './local-peers';

describe('doctor: outbound SMTP probe', () => {
  let sink: SmtpSink;
  let silent: net.Server;
  let silentPort: number;

  before(async () => {
    sink = await startSmtpSink({ name: 'mx.remote.test' });
    silent = net.createServer((s) => peer(s)); // accepts, never greets
    silentPort = await listen(silent);
  });
  after(async () => {
    await Promise.all([sink.close(), close(silent)]);
  });

  it('probes outbound SMTP with bounded timeouts: greeting, silence, refusal', async () => {
    const ok = await probeOutbound('127.0.0.1', sink.port, 2000);
    assert.equal(ok.ok, true);
    assert.match(ok.ok ? ok.banner : '', /^220 mx\.remote\.test/);

    let started = Date.now();
    const quiet = await probeOutbound('127.0.0.1', silentPort, 300);
    assert.deepEqual(quiet.ok ? null : quiet.stage, 'greeting');
    assert.ok(Date.now() - started < 2000, 'silence is bounded');

    const closedPort = await freePort();
    started = Date.now();
    const refused = await probeOutbound('127.0.0.1', closedPort, 300);
    assert.equal(refused.ok ? null : refused.error, 'ECONNREFUSED');
    assert.ok(Date.now() - started < 2000);
  });
});
