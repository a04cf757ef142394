import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RAW_REF_TRANSFORMS, rawIdFor } from '../../../../src/cli/migrate-to-postgres/raw-references';

const file = '/data/inbound/2026-11-26/0123456789abcdef0123456789abcdef.eml';

function transform(table: string, row: Record<string, unknown>): Record<string, unknown> {
  const t = RAW_REF_TRANSFORMS.get(table);
  assert.ok(t, table);
  return t(row);
}

describe('raw references: file paths become db: references of the rows made from them', () => {
  it('derives the same id from the same path (a resumed copy makes the same row)', () => {
    assert.equal(rawIdFor(file), rawIdFor(file));
    assert.notEqual(rawIdFor(file), rawIdFor(`${file}x`));
    assert.match(rawIdFor(file), /^raw_[0-9a-f]{26}$/);
  });

  it('rewrites inbound_messages.raw_path; leaves a db: reference and the key alone', () => {
    const row = { id: 'inb_1', raw_path: file, subject: 'x' };
    assert.deepEqual(transform('inbound_messages', row), { ...row, raw_path: `db:${rawIdFor(file)}` });
    const already = { id: 'inb_2', raw_path: 'db:raw_abc' };
    assert.equal(transform('inbound_messages', already), already);
  });

  it('rewrites rawPath in a job payload and the mx: dedupe key; other jobs unchanged', () => {
    const payload = JSON.stringify({ rawPath: file, sha256: 'ab', size: 3, rcptTo: ['a@b.test'] });
    const row = { id: 'job_1', queue: 'inbound-processing', payload, dedupe_key: `mx:${file}` };
    const out = transform('jobs', row);
    const ref = `db:${rawIdFor(file)}`;
    assert.deepEqual(JSON.parse(out.payload as string), {
      rawPath: ref,
      sha256: 'ab',
      size: 3,
      rcptTo: ['a@b.test'],
    });
    assert.equal(out.dedupe_key, `mx:${ref}`);
    assert.equal(out.id, 'job_1');

    const send = {
      id: 'job_2',
      queue: 'email-send',
      payload: '{"emailId":"email_1"}',
      dedupe_key: 'email_1',
    };
    assert.equal(transform('jobs', send), send);
    const broken = { id: 'job_3', queue: 'x', payload: '{"rawPath": nope', dedupe_key: null };
    assert.equal(transform('jobs', broken), broken);
  });
});
