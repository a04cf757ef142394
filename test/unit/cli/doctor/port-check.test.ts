import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { describe, it } from 'node:test';
import type { Listener } from '../../../../src/cli/appliance-probe';
import { evaluatePort, portState } from '../../../../src/cli/doctor/port-check';
import { freePort } from '../../../helpers/free-port';
import { close, listen, peer } from './local-peers';

describe('doctor: ports', () => {
  it('explains each port state', () => {
    const l: Listener = { env: 'SMTP_PORT', host: '0.0.0.0', port: 25, kind: 'smtp' };
    assert.equal(evaluatePort(l, { state: 'bindable' }, 1000).status, 'ok');
    assert.match(evaluatePort(l, { state: 'ours', detail: 'x' }, 1000).summary, /served by Mailroom/);
    assert.equal(evaluatePort(l, { state: 'foreign', detail: 'postfix' }, 1000).status, 'fail');
    const denied = evaluatePort(l, { state: 'denied', code: 'EACCES' }, 1000);
    assert.equal(denied.status, 'fail');
    assert.match(denied.hints[0] ?? '', /cap_net_bind_service/);
    assert.match(
      evaluatePort(l, { state: 'denied', code: 'EADDRNOTAVAIL' }, 1000).hints[0] ?? '',
      /BIND_ADDRESS/,
    );
    assert.equal(evaluatePort(l, { state: 'bindable' }, 1000).id, 'port_smtp_port');
  });

  it('tells a free port, a foreign listener and our own listeners apart', async () => {
    const port = await freePort();
    const l = (p: number, kind: 'http' | 'smtp'): Listener => ({
      env: 'PORT',
      host: '127.0.0.1',
      port: p,
      kind,
    });
    assert.deepEqual(await portState(l(port, 'http'), 'mx.test'), { state: 'bindable' });

    const other = net.createServer((s) => peer(s).end('hello\r\n'));
    const otherPort = await listen(other);
    const health = http.createServer((_req, res) => res.end(JSON.stringify({ status: 'ok' })));
    const healthPort = await listen(health);
    const smtp = net.createServer((s) => peer(s).end('220 MX.test ESMTP ready\r\n'));
    const smtpPort = await listen(smtp);
    try {
      assert.equal((await portState(l(otherPort, 'http'), 'mx.test', 500)).state, 'foreign');
      assert.equal((await portState(l(otherPort, 'smtp'), 'mx.test', 500)).state, 'foreign');
      assert.equal((await portState(l(healthPort, 'http'), 'mx.test', 500)).state, 'ours');
      assert.equal((await portState(l(smtpPort, 'smtp'), 'mx.test', 500)).state, 'ours');
      assert.equal((await portState(l(smtpPort, 'smtp'), 'other.test', 500)).state, 'foreign');
    } finally {
      await Promise.all([close(other), close(health), close(smtp)]);
    }
  });
});
