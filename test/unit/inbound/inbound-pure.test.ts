import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { planIntake } from '../../../src/mta/inbound-intake';
import { contentDisposition, safeContentType } from '../../../src/modules/inbound/inbound-view';
import { sanitizeFilename } from '../../../src/modules/inbound/parse-message';
import {
  deleteRawMessage,
  readRawMessage,
  storeRawMessage,
} from '../../../src/modules/inbound/raw-file-store';

describe('sanitizeFilename', () => {
  const cases: [string | undefined, string | null][] = [
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', '....etcpasswd'],
    ['..\\..\\boot.ini', '....boot.ini'],
    ['a\u0000b\r\nc\u007f.txt', 'abc.txt'],
    ['invoice\u202egpj.exe', 'invoicegpj.exe'],
    ['..', null],
    ['/', null],
    ['', null],
    [undefined, null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(sanitizeFilename(input), expected);
    });
  }
});

describe('safeContentType', () => {
  const cases: [string, string][] = [
    ['text/html', 'application/octet-stream'],
    ['TEXT/HTML; charset=utf-8', 'application/octet-stream'],
    ['image/svg+xml', 'application/octet-stream'],
    ['application/xhtml+xml', 'application/octet-stream'],
    ['application/javascript', 'application/octet-stream'],
    ['x-unknown/thing', 'application/octet-stream'],
    ['image/png', 'image/png'],
    ['application/pdf; name=a.pdf', 'application/pdf'],
    ['text/plain; charset=utf-7', 'text/plain; charset=utf-8'],
  ];
  for (const [declared, served] of cases) {
    it(`${declared} → ${served}`, () => assert.equal(safeContentType(declared), served));
  }

  it('contentDisposition always says attachment, with an ASCII fallback and the UTF-8 name', () => {
    assert.equal(
      contentDisposition('résumé "1".pdf', 'att_1'),
      `attachment; filename="r_sum_ _1_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.pdf`,
    );
    assert.equal(contentDisposition(null, 'att_1'), `attachment; filename="att_1"; filename*=UTF-8''att_1`);
  });
});

describe('planIntake', () => {
  it('one bounce group for all return-path recipients, one inbound group per domain', () => {
    const a = { kind: 'receive', domainId: 'dom_a', userId: 'usr_1' } as const;
    const b = { kind: 'receive', domainId: 'dom_b', userId: 'usr_2' } as const;
    const rp = { kind: 'return-path' } as const;
    assert.deepEqual(
      planIntake([
        { address: 'x@inbox.a.com', route: a },
        { address: 'bounce+e1@bounce.a.com', route: rp },
        { address: 'y@b.com', route: b },
        { address: 'z@inbox.a.com', route: a },
        { address: 'bounce+e2@bounce.b.com', route: rp },
      ]),
      [
        { kind: 'bounce', rcptTo: ['bounce+e1@bounce.a.com', 'bounce+e2@bounce.b.com'] },
        { kind: 'inbound', domainId: 'dom_a', userId: 'usr_1', rcptTo: ['x@inbox.a.com', 'z@inbox.a.com'] },
        { kind: 'inbound', domainId: 'dom_b', userId: 'usr_2', rcptTo: ['y@b.com'] },
      ],
    );
    assert.deepEqual(planIntake([]), []);
  });
});

describe('raw store', () => {
  it('stores bytes or a stream under inbound/<day>/, with hash and size; delete is idempotent', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-raw-'));
    const one = await storeRawMessage(dataDir, Buffer.from('Subject: a\r\n\r\nhi\r\n'));
    const two = await storeRawMessage(
      dataDir,
      Readable.from([Buffer.from('Subject: a\r\n'), Buffer.from('\r\nhi\r\n')]),
    );
    const day = new Date().toISOString().slice(0, 10);
    assert.equal(path.dirname(one.path), path.join(dataDir, 'inbound', day));
    assert.notEqual(one.path, two.path);
    assert.equal(one.sha256, two.sha256);
    assert.equal(one.size, 18);
    assert.equal((await readRawMessage(two.path)).toString(), 'Subject: a\r\n\r\nhi\r\n');
    assert.deepEqual(
      fs.readdirSync(path.dirname(one.path)).filter((f) => f.endsWith('.tmp')),
      [],
    );
    await deleteRawMessage(one.path);
    await deleteRawMessage(one.path);
    assert.equal(fs.existsSync(one.path), false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
