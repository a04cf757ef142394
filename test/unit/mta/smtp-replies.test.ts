import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import constants from 'haraka-constants';
import { DSN, answer, harakaCode } from '../../../plugins/smtp-reply';
import { probeSmtp } from '../../../src/mta/probe';
import { SmtpReplyReader } from '../../../src/mta/smtp-reply-reader';
import { accept, defer, reject } from '../../../src/mta/smtp-verdict';

describe('SmtpReplyReader', () => {
  it('assembles multi-line replies across arbitrary chunks', () => {
    const reader = new SmtpReplyReader();
    assert.deepEqual(reader.push('250-mx.example Hello\r\n250-SIZE 10'), []);
    const [ehlo] = reader.push('00\r\n250 8BITMIME\r\n');
    assert.equal(ehlo?.code, 250);
    assert.deepEqual(ehlo?.lines, ['mx.example Hello', 'SIZE 1000', '8BITMIME']);
  });

  it('returns several replies at once (pipelining) and accepts a bare code', () => {
    const replies = new SmtpReplyReader().push('250 ok\r\n550 5.1.1 no\r\n354\r\n');
    assert.deepEqual(
      replies.map((r) => r.code),
      [250, 550, 354],
    );
  });

  it('marks a line that is not a reply with code 0', () => {
    assert.equal(new SmtpReplyReader().push('garbage\r\n')[0]?.code, 0);
  });
});

describe('verdicts as Haraka answers', () => {
  it('maps each verdict kind to the Haraka return code', () => {
    assert.equal(harakaCode(accept(250, '2.1.5', 'ok')), constants.ok);
    assert.equal(harakaCode(defer(452, '4.5.3', 'x')), constants.denysoft);
    assert.equal(harakaCode(defer(421, '4.3.0', 'x', true)), constants.denysoftdisconnect);
    assert.equal(harakaCode(reject(550, '5.1.1', 'x')), constants.deny);
    assert.equal(harakaCode(reject(550, '5.6.0', 'x', true)), constants.denydisconnect);
  });

  it('passes the exact code in an object Haraka recognises as a DSN', () => {
    const calls: unknown[][] = [];
    answer((...args: unknown[]) => calls.push(args), defer(452, '4.5.3', 'Too many recipients'));
    const [retval, msg] = calls[0]!;
    assert.equal(retval, constants.denysoft);
    assert.ok(msg instanceof DSN);
    // connection.js respond(): `msg.constructor.name === 'DSN'` → code and reply from the object.
    assert.equal(msg.constructor.name, 'DSN');
    assert.equal(msg.code, 452);
    assert.equal(msg.reply, '4.5.3 Too many recipients');
  });

  it('answers "no opinion" with a bare next()', () => {
    const calls: unknown[][] = [];
    answer((...args: unknown[]) => calls.push(args), undefined);
    assert.deepEqual(calls, [[]]);
  });
});

async function serve(
  onConnection: (socket: net.Socket) => void,
): Promise<{ port: number; close: () => void }> {
  const server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

describe('probeSmtp', () => {
  it('reads a 220 greeting and says QUIT', async () => {
    let heard = '';
    const quit = Promise.withResolvers<undefined>();
    const server = await serve((socket) => {
      socket.write('220-mx.example ESMTP\r\n220 ready\r\n');
      socket.on('data', (d: Buffer) => {
        heard += d.toString();
        if (heard.includes('\r\n')) quit.resolve(undefined);
      });
    });
    assert.deepEqual(await probeSmtp('127.0.0.1', server.port, 1_000), {
      ok: true,
      banner: '220-mx.example ESMTP\n220 ready',
    });
    await quit.promise;
    assert.equal(heard, 'QUIT\r\n');
    server.close();
  });

  it('fails on another greeting, on silence and on a refused connection', async () => {
    const busy = await serve((socket) => socket.end('554 no service\r\n'));
    assert.deepEqual(await probeSmtp('127.0.0.1', busy.port, 1_000), {
      ok: false,
      error: 'unexpected greeting: 554 no service',
    });
    busy.close();

    const silent = await serve(() => undefined);
    const result = await probeSmtp('127.0.0.1', silent.port, 200);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, /within 200 ms/);
    silent.close();

    const refused = await probeSmtp('127.0.0.1', silent.port, 1_000);
    assert.equal(refused.ok, false);
  });
});
