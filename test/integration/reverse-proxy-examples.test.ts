// The Caddy and nginx examples of docs/deployment.md, taken from the page as it prints them, each
// run as a real proxy in front of a running appliance: the dashboard's sign-in and the Resend SDK
// work through them; /metrics, /internal/* and /ready do not.
//
// The only substitutions (the page's public host and TLS cannot exist on a test machine):
// - Caddy: the site address `mail.example.com` becomes `http://127.0.0.1:<port>` (plain HTTP on
//   loopback), the upstream `127.0.0.1:3000` the appliance's port, and a global block
//   (admin off, storage in the temp dir) is put before the example.
// - nginx: the first `server` block (the HTTPS one) is used; its `listen` lines become one
//   `listen 127.0.0.1:<port>;`, `http2 on;` and the two `ssl_certificate` lines are dropped, the
//   upstream `127.0.0.1:3000` becomes the appliance's port; it is wrapped in the `http {}` of a
//   nginx.conf whose pid, logs and temp paths are in the temp dir.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Resend } from 'resend';
import type { Appliance } from '../helpers/appliance';
import { REPO_ROOT, startAppliance } from '../helpers/appliance';
import { freePorts } from '../helpers/free-port';
import { skipLoudly } from '../helpers/missing-prerequisite';
import { cookieValue, setCookies } from '../helpers/set-cookies';

const page = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'deployment.md'), 'utf8');

function example(language: string): string {
  const start = page.indexOf('```' + language + '\n');
  assert.ok(start >= 0, `docs/deployment.md has a ${language} example`);
  const body = page.slice(start + language.length + 4);
  return body.slice(0, body.indexOf('```'));
}

function replaceOnce(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the example has ${JSON.stringify(from)}`);
  return text.split(from).join(to);
}

function binary(file: string): boolean {
  return fs.existsSync(file);
}

interface Proxy {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: string[];
}

async function startProxy(
  command: string,
  args: string[],
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<Proxy> {
  const output: string[] = [];
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} exited:\n${output.join('')}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, child, output };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${command} did not proxy /health in 30 s:\n${output.join('')}`);
}

async function stopProxy(proxy: Proxy | undefined): Promise<void> {
  if (proxy === undefined || proxy.child.exitCode !== null) return;
  const exited = new Promise((r) => proxy.child.once('exit', r));
  proxy.child.kill('SIGTERM');
  await exited;
}

async function caddy(dir: string, port: number, upstream: number): Promise<Proxy> {
  let config = example('caddyfile');
  config = replaceOnce(config, 'mail.example.com {', `http://127.0.0.1:${port} {`);
  config = replaceOnce(config, '127.0.0.1:3000', `127.0.0.1:${upstream}`);
  config = `{\n\tadmin off\n\tstorage file_system ${dir}/storage\n}\n${config}`;
  const file = path.join(dir, 'Caddyfile');
  fs.writeFileSync(file, config);
  return startProxy(
    'caddy',
    ['run', '--config', file, '--adapter', 'caddyfile'],
    `http://127.0.0.1:${port}`,
    {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_DATA_HOME: dir,
      XDG_CONFIG_HOME: dir,
    },
  );
}

async function nginx(dir: string, port: number, upstream: number): Promise<Proxy> {
  const all = example('nginx');
  let server = all.slice(0, all.indexOf('\n}\n') + 3);
  server = replaceOnce(server, '  listen 443 ssl;\n', `  listen 127.0.0.1:${port};\n`);
  server = replaceOnce(server, '  listen [::]:443 ssl;\n', '');
  server = replaceOnce(server, '  http2 on;\n', '');
  server = server.replace(/^ {2}ssl_certificate(_key)? +\S+;\n/gm, '');
  assert.doesNotMatch(server, /ssl/);
  server = replaceOnce(server, 'http://127.0.0.1:3000', `http://127.0.0.1:${upstream}`);
  const temp = path.join(dir, 'temp');
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(temp, 0o777);
  const config = [
    'daemon off;',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log;`,
    'events { worker_connections 64; }',
    'http {',
    `  access_log ${dir}/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${temp}/${t};`),
    server,
    '}',
    '',
  ].join('\n');
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, config);
  return startProxy('nginx', ['-p', dir, '-c', file], `http://127.0.0.1:${port}`, { PATH: process.env.PATH });
}

const missing = ['/usr/sbin/nginx', '/usr/bin/caddy'].filter((file) => !binary(file));
const skip =
  missing.length === 0
    ? false
    : skipLoudly('the reverse-proxy example tests', `${missing.join(' and ')} not installed`, [
        'Install them with: apt-get install -y nginx caddy',
      ]);

for (const [name, start] of [
  ['Caddy', caddy],
  ['nginx', nginx],
] as const) {
  describe(`docs/deployment.md's ${name} example in front of the appliance`, { skip }, () => {
    let app: Appliance;
    let proxy: Proxy;
    let dir: string;
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), `mailroom-${name.toLowerCase()}-`));
      const [port] = (await freePorts(1)) as [number];
      app = await startAppliance({
        processes: ['api'],
        env: { BASE_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: 'true' },
      });
      proxy = await start(dir, port, app.ports.http);
    });
    after(async () => {
      await stopProxy(proxy);
      await app?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('serves the dashboard and signs in to it by cookie', async () => {
      const root = await fetch(`${proxy.url}/`, { redirect: 'manual' });
      assert.equal(root.status, 302);
      assert.equal(root.headers.get('location'), '/app/');
      const screen = await fetch(`${proxy.url}/app/`);
      assert.equal(screen.status, 200);
      assert.match(screen.headers.get('content-type') ?? '', /text\/html/);
      const html = await screen.text();
      const script = /src="(\/app\/assets\/[\w-]+\.js)"/.exec(html)?.[1];
      assert.ok(script, html);
      assert.equal((await fetch(`${proxy.url}${script}`)).status, 200, script);
      const deep = await fetch(`${proxy.url}/app/emails/em_1`);
      assert.equal(deep.status, 200);
      assert.match(deep.headers.get('content-type') ?? '', /text\/html/);

      const { email, password } = await app.api.register();
      const login = await fetch(`${proxy.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: proxy.url },
        body: JSON.stringify({ email, password }),
      });
      assert.equal(login.status, 200, await login.clone().text());
      const cookies = setCookies(login.headers);
      const cookie = `mr_session=${cookieValue(cookies.get('mr_session'))}; mr_csrf=${cookieValue(cookies.get('mr_csrf'))}`;
      const me = await fetch(`${proxy.url}/v1/auth/me`, { headers: { cookie } });
      assert.equal(me.status, 200);
      const created = await fetch(`${proxy.url}/v1/api-keys`, {
        method: 'POST',
        headers: {
          cookie,
          origin: proxy.url,
          'x-csrf-token': cookieValue(cookies.get('mr_csrf')),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'through the proxy' }),
      });
      assert.equal(created.status, 201, await created.clone().text());
    });

    it('carries the Resend SDK', async () => {
      const { apiKey } = await app.api.registerWithKey();
      const resend = new Resend(apiKey, { baseUrl: proxy.url });
      const domain = await resend.domains.create({ name: `${name.toLowerCase()}.example.com` });
      assert.equal(domain.error, null, JSON.stringify(domain.error));
      const listed = await resend.domains.list();
      assert.equal(listed.error, null, JSON.stringify(listed.error));
      assert.deepEqual(
        listed.data?.data.map((d) => d.name),
        [`${name.toLowerCase()}.example.com`],
      );
      const keys = await resend.apiKeys.list();
      assert.equal(keys.error, null, JSON.stringify(keys.error));
    });

    it('keeps /metrics, /internal/* and /ready unreachable, in any spelling', async () => {
      const token = { 'x-internal-token': app.internalToken };
      // Reachable directly, with the token: the proxy is what stops them.
      assert.equal((await fetch(`${app.baseUrl}/metrics`, { headers: token })).status, 200);
      for (const p of [
        '/metrics',
        '/internal/bounces',
        '/internal',
        '/ready',
        '//metrics',
        '/./metrics',
        '/v1/../metrics',
        '/%6detrics',
        '/Metrics',
        '/%69nternal/bounces',
      ]) {
        const res = await fetch(`${proxy.url}${p}`, { headers: token });
        assert.ok([403, 404].includes(res.status), `${p} through ${name}: ${res.status}`);
        assert.doesNotMatch(await res.text(), /mailroom_|process_cpu/);
      }
    });
  });
}
