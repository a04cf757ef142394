import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { AppError, isAppError, validationError } from '../../../src/shared/app-error';
import { newId, sortableId } from '../../../src/shared/ids';
import { createLogger, redact } from '../../../src/shared/logger';
import { deriveKey, hashPassword, safeEqual, verifyPassword } from '../../../src/shared/secrets';

describe('shared', () => {
  it('ids carry their prefix and sort by creation', () => {
    const ids = Array.from({ length: 1000 }, () => sortableId());
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    assert.match(newId('email'), /^email_[0-9a-z]{26}$/);
  });

  it('hashes passwords with scrypt and verifies them', async () => {
    const hash = await hashPassword('s3cret password');
    assert.match(hash, /^scrypt\$32768\$8\$1\$/);
    assert.equal(await verifyPassword('s3cret password', hash), true);
    assert.equal(await verifyPassword('s3cret passwore', hash), false);
    assert.equal(await verifyPassword('x', 'garbage'), false);
  });

  it('compares secrets and derives purpose-bound keys', () => {
    assert.equal(safeEqual('abc', 'abc'), true);
    assert.equal(safeEqual('abc', 'abd'), false);
    assert.equal(safeEqual('abc', 'abcd'), false);
    assert.notDeepEqual(deriveKey('m'.repeat(32), 'a'), deriveKey('m'.repeat(32), 'b'));
    assert.equal(deriveKey('m'.repeat(32), 'a').length, 32);
  });

  it('redacts sensitive fields at any depth, case-insensitively', () => {
    const out = redact({
      a: { Authorization: 'Bearer x', list: [{ apiKey: 'k', ok: 1 }] },
      token: 't',
      keep: 'v',
    });
    assert.deepEqual(out, {
      a: { Authorization: '[redacted]', list: [{ apiKey: '[redacted]', ok: 1 }] },
      token: '[redacted]',
      keep: 'v',
    });
  });

  it('redacts into a copy, leaving the logged object as it was; nothing to redact, nothing copied', () => {
    const given = { event: 'x', keep: 'v', nested: { n: 1, deeper: { password: 'p' } }, after: 2 };
    const out = redact(given);
    assert.deepEqual(out, {
      event: 'x',
      keep: 'v',
      nested: { n: 1, deeper: { password: '[redacted]' } },
      after: 2,
    });
    assert.equal(given.nested.deeper.password, 'p');
    const clean = { event: 'x', n: 1, nested: { a: 'b' } };
    assert.equal(redact(clean), clean);
  });

  it('logs JSON lines with the event field and redaction applied', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createLogger({ process: 'test', destination });
    log.info({
      event: 'thing_happened',
      password: 'hunter2',
      nested: { secret: 's', dkimPrivateKeyEncrypted: 'x' },
    });
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    assert.equal(line.event, 'thing_happened');
    assert.equal(line.password, '[redacted]');
    assert.deepEqual(line.nested, { secret: '[redacted]', dkimPrivateKeyEncrypted: '[redacted]' });
    assert.ok(!(lines[0] ?? '').includes('hunter2'));
  });

  it('app errors are recognised by brand', () => {
    const err = validationError('bad', { fields: [{ field: 'x', message: 'bad' }] });
    assert.equal(isAppError(err), true);
    assert.equal(err.status, 422);
    assert.equal(isAppError(new Error('x')), false);
    assert.equal(isAppError(new AppError({ code: 'X', status: 400, message: 'm' })), true);
    // What an AppError from another realm (a Haraka plugin's sandbox) looks like: the brand, not the class.
    assert.equal(isAppError({ [Symbol.for('mailroom.app-error')]: true }), true);
  });
});
