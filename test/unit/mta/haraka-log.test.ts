import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { harakaLogLevel, mapHarakaLine } from '../../../src/mta/haraka-log';

describe('mapHarakaLine', () => {
  it('maps a Haraka JSON record to our shape, keeping origin, uuid and extra fields', () => {
    const line = JSON.stringify({
      level: 'NOTICE',
      uuid: 'ABC-1.1',
      origin: 'core',
      message: 'recipient <a@b>',
      code: 'DENY',
      msg: '5.1.1 nope',
    });
    assert.deepEqual(mapHarakaLine(line, 'stdout'), {
      level: 'info',
      fields: {
        event: 'haraka_log',
        harakaLevel: 'NOTICE',
        origin: 'core',
        uuid: 'ABC-1.1',
        data: { code: 'DENY', msg: '5.1.1 nope' },
      },
      msg: 'recipient <a@b>',
    });
  });

  it('drops the "-" uuid Haraka uses outside connections', () => {
    const mapped = mapHarakaLine('{"level":"INFO","uuid":"-","origin":"server","message":"up"}', 'stdout');
    assert.deepEqual(mapped?.fields, { event: 'haraka_log', harakaLevel: 'INFO', origin: 'server' });
  });

  it('maps every Haraka level onto a pino level', () => {
    const expected: Record<string, string> = {
      DATA: 'trace',
      PROTOCOL: 'trace',
      DEBUG: 'debug',
      INFO: 'info',
      NOTICE: 'info',
      WARN: 'warn',
      ERROR: 'error',
      CRIT: 'fatal',
      ALERT: 'fatal',
      EMERG: 'fatal',
    };
    for (const [haraka, pino] of Object.entries(expected)) {
      const line = JSON.stringify({ level: haraka, uuid: '-', origin: 'core', message: 'm' });
      assert.equal(mapHarakaLine(line, 'stdout')?.level, pino, haraka);
    }
  });

  it('lets our plugins name the event, but only with a well-formed name', () => {
    const named = JSON.stringify({
      level: 'WARN',
      uuid: '-',
      origin: 'x',
      message: 'm',
      event: 'smtp_smuggling_refused',
    });
    assert.equal(mapHarakaLine(named, 'stdout')?.fields.event, 'smtp_smuggling_refused');
    const odd = JSON.stringify({ level: 'WARN', uuid: '-', origin: 'x', message: 'm', event: 'Bad Event!' });
    assert.equal(mapHarakaLine(odd, 'stdout')?.fields.event, 'haraka_log');
  });

  it('wraps plain text: info on stdout, warn on stderr', () => {
    assert.deepEqual(mapHarakaLine('Starting up Haraka version 3.3.4', 'stdout'), {
      level: 'info',
      fields: { event: 'haraka_log', stream: 'stdout' },
      msg: 'Starting up Haraka version 3.3.4',
    });
    assert.equal(mapHarakaLine('(node:1) Warning: something', 'stderr')?.level, 'warn');
  });

  it('wraps JSON that is not a Haraka record as text', () => {
    assert.equal(mapHarakaLine('{"not":"haraka"}', 'stdout')?.msg, '{"not":"haraka"}');
    assert.equal(mapHarakaLine('{broken', 'stdout')?.msg, '{broken');
    assert.equal(mapHarakaLine('[1,2]', 'stdout')?.fields.event, 'haraka_log');
  });

  it('skips blank lines', () => {
    assert.equal(mapHarakaLine('   ', 'stdout'), undefined);
  });
});

describe('harakaLogLevel', () => {
  it('never goes below debug, so the SMTP dialogue and message data stay out of the logs', () => {
    assert.equal(harakaLogLevel('trace'), 'debug');
    assert.equal(harakaLogLevel('debug'), 'debug');
    assert.equal(harakaLogLevel('info'), 'info');
    assert.equal(harakaLogLevel('warn'), 'warn');
    assert.equal(harakaLogLevel('error'), 'error');
    assert.equal(harakaLogLevel('fatal'), 'crit');
    assert.equal(harakaLogLevel('silent'), 'emerg');
  });
});
