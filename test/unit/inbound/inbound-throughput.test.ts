import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { cachedMailauthResolver } from '../../../src/modules/inbound/dns-cache';
import { inboundLimit } from '../../../src/modules/inbound/inbound-limit';
import { readRawMessage, storeRawMessage } from '../../../src/modules/inbound/raw-file-store';

/** A DNS answering from a table, counting the questions it was asked. */
function tableDns(table: Record<string, string[][] | string[] | string>): {
  resolver: DNSResolver;
  asked: string[];
} {
  const asked: string[] = [];
  const resolver: DNSResolver = (name, rrtype) => {
    const key = `${rrtype}:${name}`;
    asked.push(key);
    const v = table[key];
    if (v === undefined) return Promise.reject(Object.assign(new Error(`no ${key}`), { code: 'ENOTFOUND' }));
    if (typeof v === 'string') return Promise.reject(Object.assign(new Error(`fail ${key}`), { code: v }));
    return Promise.resolve(v);
  };
  return { resolver, asked };
}

void describe('cachedMailauthResolver', () => {
  void it('reuses answers and NXDOMAIN within the TTL, asks again after it, one query for concurrent askers', async () => {
    let t = 1_000;
    const dns = tableDns({ 'TXT:example.com': [['v=spf1 -all']] });
    const cached = cachedMailauthResolver(dns.resolver, { ttlMs: 100, now: () => t });
    const [a, b] = await Promise.all([cached('example.com', 'TXT'), cached('EXAMPLE.com', 'TXT')]);
    assert.deepEqual(a, [['v=spf1 -all']]);
    assert.deepEqual(b, [['v=spf1 -all']]);
    assert.notEqual(a, b, 'each caller gets its own copy');
    a[0]?.push('changed');
    assert.deepEqual(await cached('example.com', 'TXT'), [['v=spf1 -all']]);
    await assert.rejects(cached('_dmarc.example.com', 'TXT'), { code: 'ENOTFOUND' });
    await assert.rejects(cached('_dmarc.example.com', 'TXT'), { code: 'ENOTFOUND' });
    assert.deepEqual(dns.asked, ['TXT:example.com', 'TXT:_dmarc.example.com']);
    t += 100;
    await cached('example.com', 'TXT');
    assert.deepEqual(dns.asked, ['TXT:example.com', 'TXT:_dmarc.example.com', 'TXT:example.com']);
  });

  void it('keeps a failure (SERVFAIL, timeout) for failureTtlMs, with its code, then asks again', async () => {
    let t = 1_000;
    const dns = tableDns({ 'TXT:broken.example': 'ESERVFAIL' });
    const cached = cachedMailauthResolver(dns.resolver, { ttlMs: 100, failureTtlMs: 500, now: () => t });
    await assert.rejects(cached('broken.example', 'TXT'), { code: 'ESERVFAIL' });
    t += 499;
    await assert.rejects(cached('broken.example', 'TXT'), { code: 'ESERVFAIL' });
    assert.equal(dns.asked.length, 1);
    t += 1;
    await assert.rejects(cached('broken.example', 'TXT'), { code: 'ESERVFAIL' });
    assert.equal(dns.asked.length, 2);
  });

  void it('keeps at most maxEntries answers', async () => {
    const dns = tableDns({ 'A:a.example': ['192.0.2.1'], 'A:b.example': ['192.0.2.2'] });
    const cached = cachedMailauthResolver(dns.resolver, { maxEntries: 1 });
    await cached('a.example', 'A');
    await cached('b.example', 'A');
    await cached('a.example', 'A');
    assert.deepEqual(dns.asked, ['A:a.example', 'A:b.example', 'A:a.example']);
  });
});

void describe('inboundLimit', () => {
  const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

  void it('admits by count and by bytes, first come first served; an oversized message runs alone', async () => {
    const limit = inboundLimit(2, 100);
    const order: string[] = [];
    const take = (name: string, bytes: number): Promise<() => void> =>
      limit.acquire(bytes).then((release) => {
        order.push(name);
        return release;
      });
    const a = take('a', 10);
    const b = take('b', 10);
    const c = take('c', 10); // third: over the count
    await flush();
    assert.deepEqual(order, ['a', 'b']);
    (await a)();
    await flush();
    assert.deepEqual(order, ['a', 'b', 'c']);
    const big = take('big', 500); // larger than the budget: waits until nothing runs
    const d = take('d', 1); // behind big, although it would fit
    await flush();
    assert.deepEqual(order, ['a', 'b', 'c']);
    (await b)();
    (await c)();
    await flush();
    assert.deepEqual(order, ['a', 'b', 'c', 'big']);
    (await big)();
    (await big)(); // a second release changes nothing
    await flush();
    assert.deepEqual(order, ['a', 'b', 'c', 'big', 'd']);
    const e = take('e', 99);
    const f = take('f', 1); // 1 + 99 = 100 of 100 with d running: over the count of 2
    await flush();
    assert.deepEqual(order, ['a', 'b', 'c', 'big', 'd', 'e']);
    (await d)();
    await flush();
    assert.deepEqual(order, ['a', 'b', 'c', 'big', 'd', 'e', 'f']);
    (await e)();
    (await f)();
  });
});

void describe('storeRawMessage', () => {
  void it('recreates a day directory removed while the process runs', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'raw-store-'));
    const first = await storeRawMessage(dataDir, Buffer.from('a\r\n'));
    fs.rmSync(path.join(dataDir, 'inbound'), { recursive: true, force: true });
    const second = await storeRawMessage(dataDir, Buffer.from('b\r\n'));
    assert.equal(path.dirname(second.path), path.dirname(first.path));
    assert.equal((await readRawMessage(second.path)).toString(), 'b\r\n');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
