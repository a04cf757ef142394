import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { configDocsMarkdown } from '../../../src/cli/config-docs';
import { ConfigError, loadConfig, parseConfig, sqlitePath } from '../../../src/config';
import { REPO_ROOT } from '../../helpers/appliance';

describe('configuration', () => {
  it('runs on no environment at all with the documented defaults', () => {
    const c = parseConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.workerPort, 4001);
    assert.equal(c.smtpPort, 2525);
    assert.equal(c.submissionPort, 2587);
    assert.equal(c.bindAddress, '0.0.0.0');
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(sqlitePath(c), path.resolve('./data/mail.db'));
    assert.equal(c.baseUrl, 'http://localhost:3000');
    assert.equal(c.httpRateLimitPerMinute, 600);
    assert.equal(c.rateLimitEmailsPerHour, 100);
    assert.equal(c.rateLimitEmailsPerDay, 1000);
    assert.equal(c.newAccountEmailsPerHour, 20);
    assert.equal(c.emailMaxRecipients, 50);
    assert.equal(c.emailMaxSizeBytes, 10 * 1024 * 1024);
    assert.equal(c.webhookMaxAttempts, 6);
    assert.equal(c.abuseAutoSuspend, false);
    assert.equal(c.internalApiToken, undefined);
    assert.equal(c.smtpRelay, undefined);
  });

  it('derives dependent defaults from the keys they follow', () => {
    const c = parseConfig({ PORT: '8080', MAIL_HOSTNAME: 'MX.Example.ORG.', DATA_DIR: '/srv/mail' });
    assert.equal(c.baseUrl, 'http://localhost:8080');
    assert.equal(c.mailHostname, 'mx.example.org');
    assert.equal(c.mxHost, 'mx.example.org');
    assert.equal(c.bounceHost, 'mx.example.org');
    assert.equal(c.spfIncludeHost, '_spf.mx.example.org');
    assert.equal(sqlitePath(c), '/srv/mail/mail.db');
  });

  it('parses lists and host:port values', () => {
    const c = parseConfig({
      DNS_SERVERS: '127.0.0.1:5353, 10.0.0.2',
      SMTP_RELAY: 'relay.example.net:2525',
      MTA_RETRY_INTERVALS: '5,10,30',
    });
    assert.deepEqual(c.dnsServers, [
      { host: '127.0.0.1', port: 5353 },
      { host: '10.0.0.2', port: 53 },
    ]);
    assert.deepEqual(c.smtpRelay, { host: 'relay.example.net', port: 2525 });
    assert.deepEqual(c.mtaRetryIntervals, [5, 10, 30]);
  });

  it('fails listing every invalid key at once', () => {
    let error: unknown;
    try {
      parseConfig({
        PORT: 'eighty',
        SMTP_RELAY: 'nohostport',
        ABUSE_AUTO_SUSPEND: 'maybe',
        SECRET_KEY: 'short',
      });
    } catch (err) {
      error = err;
    }
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((p) => p.env).sort(), [
      'ABUSE_AUTO_SUSPEND',
      'PORT',
      'SECRET_KEY',
      'SMTP_RELAY',
    ]);
    assert.match(error.message, /PORT: expected an integer/);
  });

  it('refuses colliding listener ports and resolver names', () => {
    assert.throws(
      () => parseConfig({ SMTP_PORT: '2600', MTA_INJECT_PORT: '2600' }),
      (err: unknown) =>
        err instanceof ConfigError && err.problems.length === 1 && err.problems[0]?.env === 'MTA_INJECT_PORT',
    );
    assert.throws(
      () => parseConfig({ DNS_SERVERS: 'dns.example.com' }),
      (err: unknown) => err instanceof ConfigError && err.problems[0]?.env === 'DNS_SERVERS',
    );
    assert.equal(parseConfig({ SUBMISSION_PORT: '0', SMTP_PORT: '2700' }).submissionPort, 0);
    assert.equal(parseConfig({}).smtpsPort, 0, 'SMTPS off by default');
    assert.equal(parseConfig({ SMTPS_PORT: '465' }).smtpsPort, 465);
    for (const other of ['SMTP_PORT', 'SUBMISSION_PORT', 'MTA_INJECT_PORT', 'PORT', 'WORKER_PORT'])
      assert.throws(
        () => parseConfig({ [other]: '2465', SMTPS_PORT: '2465' }),
        (err: unknown) =>
          err instanceof ConfigError &&
          err.problems.some((p) => /port 2465 is already used/.test(p.problem)) &&
          err.problems.some((p) => p.env === 'SMTPS_PORT' || p.env === other),
        other,
      );
    assert.equal(
      parseConfig({ SUBMISSION_PORT: '0', SMTPS_PORT: '0' }).smtpsPort,
      0,
      'two disabled ports never collide',
    );
  });

  it('generates the secret key once into DATA_DIR with mode 0600, then reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-cfg-'));
    const first = loadConfig({ DATA_DIR: dir });
    assert.equal(first.secret.generated, true);
    const stat = fs.statSync(path.join(dir, 'secret.key'));
    assert.equal(stat.mode & 0o777, 0o600);
    const second = loadConfig({ DATA_DIR: dir });
    assert.equal(second.secret.generated, false);
    assert.equal(second.config.secretKey, first.config.secretKey);
    assert.ok(first.config.secretKey.length >= 32);
    const given = loadConfig({ DATA_DIR: dir, SECRET_KEY: 'x'.repeat(40) });
    assert.equal(given.config.secretKey, 'x'.repeat(40));
  });

  it('docs/configuration.md documents every key exactly as the table says', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'configuration.md'), 'utf8');
    assert.ok(doc.includes(configDocsMarkdown()), 'regenerate the table with `npm run ctl -- config docs`');
  });
});
