import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReceivingDomainRow } from '../../../src/mta/receiving-view';
import { buildReceivingView, createReceivingViewCache } from '../../../src/mta/receiving-view';
import { formatReply } from '../../../src/mta/smtp-verdict';
import { rcptVerdict } from '../../../src/mta/rcpt-verdict';

function row(over: Partial<ReceivingDomainRow>): ReceivingDomainRow {
  return {
    id: 'dom_1',
    user_id: 'usr_1',
    domain: 'example.com',
    receive_enabled: 1,
    inbound_label: 'inbox',
    addresses: '[]',
    ...over,
  };
}

describe('buildReceivingView', () => {
  const view = buildReceivingView([
    row({}),
    row({ id: 'dom_2', domain: 'listed.org', addresses: '["sales","Support"]' }),
    row({ id: 'dom_3', domain: 'apex.net', inbound_label: '@' }),
    row({ id: 'dom_4', domain: 'sendonly.io', receive_enabled: 0 }),
  ]);
  const verdict = (local: string, host: string): string => formatReply(rcptVerdict({ local, host }, view));

  it('receives at <label>.<domain>, any local part when addresses is empty', () => {
    assert.match(verdict('anyone', 'inbox.example.com'), /^250 /);
    assert.deepEqual(view.host('inbox.example.com')?.route, {
      kind: 'receive',
      domainId: 'dom_1',
      userId: 'usr_1',
    });
    assert.match(verdict('anyone', 'example.com'), /^550 5\.1\.1/);
  });

  it('with addresses, only those local parts (case-insensitive); 550 for others', () => {
    assert.match(verdict('sales', 'inbox.listed.org'), /^250 /);
    assert.match(verdict('SUPPORT', 'inbox.listed.org'), /^250 /);
    assert.equal(verdict('info', 'inbox.listed.org'), '550 5.1.1 <info@inbox.listed.org>: no such user here');
  });

  it('the apex label receives at the domain itself, and not at inbox.', () => {
    assert.match(verdict('x', 'apex.net'), /^250 /);
    assert.match(verdict('x', 'inbox.apex.net'), /^550 /);
  });

  it('every domain has a return-path host accepting all local parts, receiving or not', () => {
    for (const d of ['example.com', 'listed.org', 'sendonly.io']) {
      assert.match(verdict('bounce+email_1', `bounce.${d}`), /^250 /);
      assert.deepEqual(view.host(`bounce.${d}`)?.route, { kind: 'return-path' });
    }
    assert.match(verdict('x', 'inbox.sendonly.io'), /^550 /);
  });

  it('a malformed addresses list accepts nobody', () => {
    const broken = buildReceivingView([row({ addresses: 'not json' })]);
    assert.equal(rcptVerdict({ local: 'x', host: 'inbox.example.com' }, broken).kind, 'reject');
  });
});

describe('createReceivingViewCache', () => {
  it('loads on first use, reloads periodically, keeps the last view when a reload fails', async () => {
    let rows: ReceivingDomainRow[] = [row({})];
    let fail = false;
    let loads = 0;
    const errors: unknown[] = [];
    const cache = createReceivingViewCache({
      load: () => {
        loads++;
        return fail ? Promise.reject(new Error('db down')) : Promise.resolve(rows);
      },
      refreshMs: 20,
      onError: (e) => errors.push(e),
    });
    assert.ok((await cache.current()).host('inbox.example.com'));
    rows = [row({ domain: 'other.com' })];
    await new Promise((r) => setTimeout(r, 60));
    assert.ok((await cache.current()).host('inbox.other.com'));
    fail = true;
    await new Promise((r) => setTimeout(r, 60));
    assert.ok((await cache.current()).host('inbox.other.com'), 'last good view kept');
    assert.ok(errors.length > 0 && loads > 2);
    cache.stop();
  });

  it('rejects while no load ever succeeded', async () => {
    const cache = createReceivingViewCache({
      load: () => Promise.reject(new Error('no db')),
      refreshMs: 1000,
    });
    await assert.rejects(cache.current(), /no db/);
    cache.stop();
  });
});
