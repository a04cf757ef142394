import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseConfig } from '../../../src/config';
import {
  TEMPLATE_DIR,
  harakaShutdownSeconds,
  listenAddress,
  pluginNames,
  renderMtaConfig,
  renderTemplate,
  tempFailIntervals,
  templateValues,
} from '../../../src/mta/render-config';
import { injectMaxBytes } from '../../../src/mta/size-limits';

const dirs: string[] = [];
function configIn(env: Record<string, string> = {}): ReturnType<typeof parseConfig> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-render-'));
  dirs.push(dataDir);
  return parseConfig({
    DATA_DIR: dataDir,
    SMTP_PORT: '2525',
    MTA_INJECT_PORT: '2526',
    BIND_ADDRESS: '0.0.0.0',
    MAIL_HOSTNAME: 'mx.example.net',
    EMAIL_MAX_SIZE_BYTES: '5000000',
    // Most cases render the deprecated OUTBOUND_SENDER=haraka (injection listener, outbound
    // plugins); the worker's own sender has its case below.
    OUTBOUND_SENDER: 'haraka',
    ...env,
  });
}
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const read = (dir: string, file: string): string => fs.readFileSync(path.join(dir, 'config', file), 'utf8');

describe('renderMtaConfig', () => {
  const config = configIn({ DNS_SERVERS: '127.0.0.1:5353,[::1]', MTA_RETRY_INTERVALS: '60,300' });
  const rendered = renderMtaConfig(config);
  const dir = rendered.harakaDir;

  it('renders into $DATA_DIR/mta with the queue beside it, not inside', () => {
    assert.equal(dir, path.join(config.dataDir, 'mta'));
    assert.equal(rendered.queueDir, path.join(config.dataDir, 'mta-queue'));
    assert.ok(fs.statSync(rendered.queueDir).isDirectory());
    assert.equal(read(dir, 'queue_dir').trim(), rendered.queueDir);
  });

  it('leaves no placeholder behind in any file', () => {
    for (const file of fs.readdirSync(path.join(dir, 'config'))) {
      assert.doesNotMatch(read(dir, file), /\{\{/, file);
    }
    // The templates plus the STARTTLS files tls.ini names (src/mta/tls-files.ts).
    assert.deepEqual(
      fs.readdirSync(path.join(dir, 'config')).sort(),
      [...fs.readdirSync(TEMPLATE_DIR), 'dhparams.pem', 'tls_cert.pem', 'tls_key.pem'].sort(),
    );
  });

  it('writes a self-signed certificate once into DATA_DIR/tls and the key 0600 into config/', () => {
    const tlsIni = read(dir, 'tls.ini');
    assert.match(tlsIni, /^key=tls_key\.pem$/m);
    assert.match(tlsIni, /^cert=tls_cert\.pem$/m);
    assert.match(tlsIni, /^dhparam=dhparams\.pem$/m);
    assert.equal(rendered.tls, 'self-signed');
    const cert = new crypto.X509Certificate(fs.readFileSync(path.join(dir, 'config', 'tls_cert.pem')));
    assert.match(cert.subject, /CN=mx\.example\.net/);
    assert.ok(
      cert.checkPrivateKey(crypto.createPrivateKey(fs.readFileSync(path.join(dir, 'config', 'tls_key.pem')))),
    );
    assert.equal(fs.statSync(path.join(dir, 'config', 'tls_key.pem')).mode & 0o777, 0o600);
    assert.deepEqual(
      fs.readFileSync(path.join(dir, '..', 'tls', 'cert.pem')),
      fs.readFileSync(path.join(dir, 'config', 'tls_cert.pem')),
    );
  });

  it('listens publicly on BIND_ADDRESS (MX, submission) and for injection on loopback only, in one process', () => {
    const smtp = read(dir, 'smtp.ini');
    assert.match(smtp, /^listen=0\.0\.0\.0:2525,127\.0\.0\.1:2526,0\.0\.0\.0:2587$/m);
    assert.match(smtp, /^nodes=0$/m);
    assert.match(smtp, /^graceful_shutdown=true$/m);
    assert.match(smtp, /^force_shutdown_timeout=6$/m);
    // Haraka's default smtps_port is 465: off unless SMTPS_PORT is set.
    assert.match(smtp, /^smtps_port=0$/m);
    assert.match(read(dir, 'mailroom.ini'), /^smtps_port=0$/m);
  });

  it('adds SMTPS_PORT as an implicit-TLS listener, known to the submission plugin', () => {
    const smtps = renderMtaConfig(configIn({ SMTPS_PORT: '2465' })).harakaDir;
    const smtp = read(smtps, 'smtp.ini');
    assert.match(smtp, /^listen=0\.0\.0\.0:2525,127\.0\.0\.1:2526,0\.0\.0\.0:2587,0\.0\.0\.0:2465$/m);
    assert.match(smtp, /^smtps_port=2465$/m);
    assert.match(read(smtps, 'mailroom.ini'), /^\[submission\]\n(?:.*\n)*smtps_port=2465$/m);
  });

  it('names the certificate files mailroom-tls polls for a renewal: absolute paths', () => {
    const ini = read(dir, 'mailroom.ini');
    assert.match(ini, new RegExp(`^cert_file=${path.join(config.dataDir, 'tls', 'cert.pem')}$`, 'm'));
    assert.match(ini, new RegExp(`^key_file=${path.join(config.dataDir, 'tls', 'key.pem')}$`, 'm'));
    assert.match(ini, /^reload_ms=2000$/m);
    const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-render-cert-'));
    dirs.push(certDir);
    fs.copyFileSync(path.join(config.dataDir, 'tls', 'cert.pem'), path.join(certDir, 'fullchain.pem'));
    fs.copyFileSync(path.join(config.dataDir, 'tls', 'key.pem'), path.join(certDir, 'privkey.pem'));
    const relative = path.relative(process.cwd(), certDir);
    const given = renderMtaConfig(
      configIn({
        TLS_CERT_FILE: path.join(relative, 'fullchain.pem'),
        TLS_KEY_FILE: path.join(relative, 'privkey.pem'),
      }),
    );
    assert.equal(given.tls, 'configured');
    const givenIni = read(given.harakaDir, 'mailroom.ini');
    assert.ok(givenIni.includes(`\ncert_file=${path.join(certDir, 'fullchain.pem')}\n`), givenIni);
    assert.ok(givenIni.includes(`\nkey_file=${path.join(certDir, 'privkey.pem')}\n`), givenIni);
  });

  it('sizes Haraka for the MIME-encoded injection, the MX for EMAIL_MAX_SIZE_BYTES', () => {
    assert.match(read(dir, 'connection.ini'), new RegExp(`^bytes=${injectMaxBytes(5_000_000)}$`, 'm'));
    assert.equal(injectMaxBytes(5_000_000), 7_065_536);
    const mailroom = read(dir, 'mailroom.ini');
    assert.match(mailroom, /^max_message_bytes=5000000$/m);
    assert.match(mailroom, /^port=2526$/m);
    assert.match(mailroom, /^max_recipients=100$/m);
    assert.match(mailroom, /^inject_max_recipients=100$/m);
  });

  it('renders the outbound settings: SMTP_RELAY, one queue file per recipient, opportunistic TLS', () => {
    const outbound = read(dir, 'outbound.ini');
    assert.match(outbound, /^always_split=true$/m);
    assert.match(outbound, /^enable_tls=true$/m);
    assert.match(read(dir, 'tls.ini'), /^\[outbound\]\n(?:;.*\n)*rejectUnauthorized=false$/m);
    assert.match(read(dir, 'mailroom.ini'), /^relay_host=$/m, 'no relay: MX delivery');
    const relayed = renderMtaConfig(
      configIn({ SMTP_RELAY: 'smarthost.example.net:587', EMAIL_MAX_RECIPIENTS: '500' }),
    ).harakaDir;
    const mailroom = read(relayed, 'mailroom.ini');
    assert.match(mailroom, /^relay_host=smarthost\.example\.net$/m);
    assert.match(mailroom, /^relay_port=587$/m);
    assert.match(mailroom, /^inject_max_recipients=500$/m);
  });

  it("keeps Haraka's local-MX skip unless the test-only OUTBOUND_MX_PORT moves the MX port", () => {
    assert.match(read(dir, 'outbound.ini'), /^local_mx_ok=false$/m);
    const moved = renderMtaConfig(configIn({ OUTBOUND_MX_PORT: '2025' })).harakaDir;
    assert.match(read(moved, 'outbound.ini'), /^local_mx_ok=true$/m);
  });

  it('names the host, logs JSON, retries on MTA_RETRY_INTERVALS', () => {
    assert.equal(read(dir, 'me').trim(), 'mx.example.net');
    assert.match(read(dir, 'log.ini'), /^format=json$/m);
    assert.match(read(dir, 'log.ini'), /^level=info$/m);
    assert.match(read(dir, 'outbound.ini'), /^temp_fail_intervals=60s,300s$/m);
    assert.match(read(dir, 'mailroom.ini'), /^servers=127\.0\.0\.1:5353,\[::1\]:53$/m);
  });

  it('lists only our plugins, each a folder plugin re-exporting the compiled one', () => {
    assert.deepEqual(rendered.plugins, [
      'mailroom-process',
      'mailroom-dns',
      'mailroom-tls',
      'mailroom-disk',
      'mailroom-guard',
      'mailroom-submission',
      'mailroom-inject',
      'mailroom-dkim',
      'mailroom-rcpt',
      'mailroom-inbound',
      'mailroom-outbound',
    ]);
    for (const name of rendered.plugins) {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'plugins', name, 'package.json'), 'utf8')) as {
        main: string;
      };
      assert.equal(pkg.main, 'index.js');
    }
    // What Haraka does with a folder plugin: require the folder, copy the exports.
    const loaded = createRequire(__filename)(path.join(dir, 'plugins', 'mailroom-rcpt')) as Record<
      string,
      unknown
    >;
    assert.equal(typeof loaded.register, 'function');
    assert.equal(typeof loaded.decideRecipient, 'function');
  });

  it('with OUTBOUND_SENDER=worker: the SMTP servers only, no injection listener, no outbound plugin, no queue to deliver', () => {
    const config = configIn({ OUTBOUND_SENDER: 'worker' });
    // Mail an older build left in Haraka's queue is not Haraka's to deliver any more.
    fs.mkdirSync(path.join(config.dataDir, 'mta-queue'));
    fs.writeFileSync(path.join(config.dataDir, 'mta-queue', '1733000000000_0_1_1234_x_1_host'), 'old');
    const worker = renderMtaConfig(config);
    assert.match(read(worker.harakaDir, 'smtp.ini'), /^listen=0\.0\.0\.0:2525,0\.0\.0\.0:2587$/m);
    assert.deepEqual(worker.plugins, [
      'mailroom-process',
      'mailroom-dns',
      'mailroom-tls',
      'mailroom-disk',
      'mailroom-guard',
      'mailroom-submission',
      'mailroom-rcpt',
      'mailroom-inbound',
    ]);
    assert.deepEqual(pluginNames(read(worker.harakaDir, 'plugins')), worker.plugins);
    assert.deepEqual(
      fs.readdirSync(path.join(worker.harakaDir, 'plugins')).sort(),
      [...worker.plugins].sort(),
    );
    assert.notEqual(worker.queueDir, path.join(config.dataDir, 'mta-queue'));
    assert.equal(read(worker.harakaDir, 'queue_dir').trim(), worker.queueDir);
    assert.deepEqual(fs.readdirSync(worker.queueDir), []);
  });

  it('starts from scratch each time: a stale file disappears', () => {
    fs.writeFileSync(path.join(dir, 'config', 'stale.ini'), 'x=1');
    fs.writeFileSync(path.join(rendered.queueDir, 'queued-mail'), 'keep me');
    renderMtaConfig(config);
    assert.equal(fs.existsSync(path.join(dir, 'config', 'stale.ini')), false);
    assert.equal(fs.readFileSync(path.join(rendered.queueDir, 'queued-mail'), 'utf8'), 'keep me');
  });

  it('fails with the path when a plugin was not built', () => {
    assert.throws(
      () => renderMtaConfig(config, { pluginDistDir: path.join(config.dataDir, 'nowhere') }),
      /mailroom-process: .*nowhere.* not found/,
    );
  });
});

describe('templateValues', () => {
  it('leaves DNS servers empty when DNS_SERVERS is unset (system resolvers)', () => {
    assert.equal(templateValues(configIn()).dns_servers, '');
  });

  it('binds IPv6 BIND_ADDRESS in brackets', () => {
    assert.match(templateValues(configIn({ BIND_ADDRESS: '::' })).listen ?? '', /^\[::\]:2525,/);
  });
});

describe('rendering helpers', () => {
  it('renderTemplate replaces placeholders and refuses unknown ones and line breaks', () => {
    assert.equal(renderTemplate('a={{ x }}\nb={{y}}', { x: '1', y: '2' }), 'a=1\nb=2');
    assert.throws(() => renderTemplate('{{nope}}', {}), /unknown placeholder \{\{nope\}\}/);
    assert.throws(() => renderTemplate('me={{me}}', { me: 'a\nnodes=4' }), /line break/);
  });

  it('pluginNames reads a Haraka plugins file', () => {
    assert.deepEqual(pluginNames('# c\n\na\n  b  # why\n'), ['a', 'b']);
  });

  it('tempFailIntervals writes seconds', () => {
    assert.equal(tempFailIntervals([60, 3600]), '60s,3600s');
  });

  it('listenAddress brackets IPv6 only', () => {
    assert.equal(listenAddress('127.0.0.1', 25), '127.0.0.1:25');
    assert.equal(listenAddress('::1', 25), '[::1]:25');
  });

  it('harakaShutdownSeconds leaves the mta process time to kill and exit', () => {
    assert.equal(harakaShutdownSeconds(8000), 6);
    assert.equal(harakaShutdownSeconds(100), 1);
  });
});
