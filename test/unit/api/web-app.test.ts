// Issue 19: without a built dashboard, `/app/` says how to build it instead of a bare 404.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Koa from 'koa';
import { isResendPath } from '../../../src/compat/resend-paths';
import { DASHBOARD_SCREENS, MOVED_PAGES, webApp } from '../../../src/api/web-app';

describe('webApp without web/dist', () => {
  it('answers the screen paths 503 with the build instruction, under the CSP', async () => {
    const app = new Koa();
    app.use(webApp(path.join(os.tmpdir(), 'no-such-mailroom-web-dist')));
    const server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/app/overview`);
      assert.equal(res.status, 503);
      assert.match(await res.text(), /npm run build/);
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.equal((await fetch(`http://127.0.0.1:${port}/v1/emails`)).status, 404);
      assert.equal(
        (await fetch(`http://127.0.0.1:${port}/overview`)).status,
        503,
        'redirected to /app/overview',
      );
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('the old screen paths redirected to /app/ (issue 30)', () => {
  it("are none of the Resend surface's paths, which that API answers alone", () => {
    for (const name of MOVED_PAGES) assert.equal(isResendPath(`/${name}`), false, name);
  });
});

describe("the dashboard's screens (issue 29 item 9)", () => {
  it('are the paths the app routes: the server answers 404 for the others, the app "Page not found"', () => {
    // dist/test/unit/http → the repository's web/src/app.tsx
    const source = fs.readFileSync(
      path.resolve(__dirname, '..', '..', '..', '..', 'web', 'src', 'app.tsx'),
      'utf8',
    );
    const routed = [...source.matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]?.replace(/:\w+/g, ':id'));
    assert.deepEqual([...new Set(routed)].sort(), [...DASHBOARD_SCREENS].sort());
  });
});
