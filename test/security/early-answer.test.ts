import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';

/**
 * An answer sent before the request body was read (401 before the body of a large send, 413,
 * 429 ...) reaches a client that is still writing: the api answers with `Connection: close`,
 * then reads and discards the rest of the body (bounded) before it closes. Before, the socket
 * was closed under the client, which got EPIPE or ECONNRESET instead of the answer.
 */
interface ErrorBody {
  error: { code: string; message: string };
}

interface SlowAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The request's socket error, if the client saw one. */
  error: NodeJS.ErrnoException | undefined;
}

const FIVE_MB = 5 * 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * POSTs `total` bytes in 64 KiB chunks with a pause now and then, so the answer arrives
 * while the client is still writing. Resolves once the body is written, or a second after
 * the answer was read, with the first socket error the client saw.
 */
function slowPost(
  port: number,
  pathname: string,
  headers: Record<string, string>,
  total: number,
  options: { chunked?: boolean } = {},
): Promise<SlowAnswer> {
  return new Promise((resolve) => {
    let error: NodeJS.ErrnoException | undefined;
    // A server that neither reads nor closes leaves the client waiting: fail within bounds.
    const deadline = setTimeout(() => {
      fail(Object.assign(new Error('no answer in 30 s'), { code: 'TIMEOUT' }));
      req.destroy();
    }, 30_000);
    let answer: Omit<SlowAnswer, 'error'> | undefined;
    let written = false;
    const fail = (err: NodeJS.ErrnoException): void => {
      error ??= err;
      written = true;
      answer ??= { status: 0, headers: {}, body: '' };
      settle();
    };
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      clearTimeout(grace);
      req.destroy();
      resolve({ ...(answer ?? { status: 0, headers: {}, body: '' }), error });
    };
    let grace: NodeJS.Timeout | undefined;
    // Once the answer is in, node's client stops sending a body the server said it closes
    // after; a second more shows any socket error that the close would bring.
    const settle = (): void => {
      if (!answer) return;
      if (written) finish();
      else if (!grace) grace = setTimeout(finish, 1_000);
    };
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: pathname,
      headers: {
        'content-type': 'application/json',
        ...(options.chunked ? {} : { 'content-length': String(total) }),
        ...headers,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        settle();
      });
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(Object.assign(new Error('answer cut short'), { code: 'ABORTED' }));
      });
    });
    req.on('error', fail);
    // A JSON string of 'a's, so a server that did read it would see a well-formed body.
    const chunk = Buffer.alloc(CHUNK, 'a');
    let sent = 0;
    const writeMore = (): void => {
      if (error) return;
      while (sent < total) {
        const n = Math.min(CHUNK, total - sent);
        const piece =
          sent === 0 ? Buffer.concat([Buffer.from('"'), chunk.subarray(1, n)]) : chunk.subarray(0, n);
        sent += n;
        const ok = req.write(
          sent === total ? Buffer.concat([piece.subarray(0, n - 1), Buffer.from('"')]) : piece,
        );
        if (!ok) {
          req.once('drain', writeMore);
          return;
        }
        if ((sent / CHUNK) % 8 === 0) {
          setTimeout(writeMore, 2);
          return;
        }
      }
      req.end(() => {
        written = true;
        settle();
      });
    };
    writeMore();
  });
}

function assertAnswered(res: SlowAnswer, status: number, code: string): void {
  assert.equal(
    res.error,
    undefined,
    `the client got a socket error: ${res.error?.code} ${res.error?.message}`,
  );
  assert.equal(res.status, status, res.body);
  assert.equal((JSON.parse(res.body) as ErrorBody).error.code, code);
  assert.equal(res.headers.connection, 'close');
}

describe('an early answer reaches a client that is still writing', () => {
  let app: Appliance;
  let revokedKey: string;
  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    const user = await app.api.register();
    const key = await app.api.post<{ id: string; token: string }>('/v1/api-keys', {
      token: user.token,
      body: { name: 'to revoke' },
    });
    assert.equal(key.status, 201, key.text);
    const revoked = await app.api.delete(`/v1/api-keys/${key.body.id}`, { token: user.token });
    assert.equal(revoked.status, 200, revoked.text);
    revokedKey = key.body.token;
  });
  after(async () => {
    await app.stop();
  });

  it('a 5 MB send without credentials reads 401 UNAUTHORIZED', async () => {
    assertAnswered(await slowPost(app.ports.http, '/v1/emails', {}, FIVE_MB), 401, 'UNAUTHORIZED');
  });

  it('a 5 MB send with a revoked key reads 401 INVALID_API_KEY', async () => {
    const res = await slowPost(
      app.ports.http,
      '/v1/emails',
      { authorization: `Bearer ${revokedKey}` },
      FIVE_MB,
    );
    assertAnswered(res, 401, 'INVALID_API_KEY');
  });

  it('a 5 MB chunked send with an unknown key reads 401 INVALID_API_KEY', async () => {
    const res = await slowPost(
      app.ports.http,
      '/v1/emails',
      { authorization: `Bearer re_live_${'x'.repeat(40)}` },
      FIVE_MB,
      { chunked: true },
    );
    assertAnswered(res, 401, 'INVALID_API_KEY');
  });

  it('a body over the route limit reads 413, declared or chunked', async () => {
    const declared = await slowPost(app.ports.http, '/v1/auth/login', {}, FIVE_MB);
    assertAnswered(declared, 413, 'PAYLOAD_TOO_LARGE');
    // Chunked: refused once the bytes read pass the limit, mid-body.
    const chunked = await slowPost(app.ports.http, '/v1/auth/login', {}, FIVE_MB, { chunked: true });
    assertAnswered(chunked, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('the connection is still usable for the answer only: the api closes it afterwards', async () => {
    // The next request on a fresh connection works: the drained one did not wedge the server.
    const health = await app.api.get('/health');
    assert.equal(health.status, 200);
  });

  it('curl with a 5 MB --data-binary reads the 401', (t) => {
    const found = spawnSync('curl', ['--version'], { encoding: 'utf8' });
    if (found.error) {
      const why = `curl is not installed (${found.error.message}): the curl case did not run`;
      if (process.env.CI === 'true') assert.fail(why);
      console.error(`\n*** SKIPPED: ${why} ***\n`);
      t.skip(why);
      return;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'early-answer-'));
    try {
      const file = path.join(dir, 'body.json');
      fs.writeFileSync(file, `"${'a'.repeat(FIVE_MB - 2)}"`);
      const res = spawnSync(
        'curl',
        [
          '-sS',
          '-o',
          '-',
          '-w',
          '\n%{http_code}',
          '-H',
          'Content-Type: application/json',
          '-H',
          `Authorization: Bearer ${revokedKey}`,
          // Without this curl waits for 100 Continue and sends nothing once the 401 came.
          '-H',
          'Expect:',
          '--data-binary',
          `@${file}`,
          `${app.baseUrl}/v1/emails`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(res.status, 0, `curl failed: ${res.stderr}`);
      const lines = res.stdout.trimEnd().split('\n');
      assert.equal(lines.at(-1), '401', res.stdout);
      assert.equal((JSON.parse(lines.slice(0, -1).join('\n')) as ErrorBody).error.code, 'INVALID_API_KEY');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
