import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { LineBreakFault } from '../../../src/mta/line-breaks';
import { LineBreakScanner, scanLineBreaks } from '../../../src/mta/line-breaks';

/** A whole message pushed in one chunk. */
function scan(text: string): LineBreakFault | undefined {
  const scanner = new LineBreakScanner();
  scanner.push(Buffer.from(text, 'latin1'));
  return scanner.end();
}

/** The same bytes pushed in every possible two-way split, and byte by byte. */
function scanSplits(text: string): (LineBreakFault | undefined)[] {
  const bytes = Buffer.from(text, 'latin1');
  const results: (LineBreakFault | undefined)[] = [];
  for (let cut = 0; cut <= bytes.length; cut++) {
    const scanner = new LineBreakScanner();
    scanner.push(bytes.subarray(0, cut));
    scanner.push(bytes.subarray(cut));
    results.push(scanner.end());
  }
  const single = new LineBreakScanner();
  for (const byte of bytes) single.push(Buffer.from([byte]));
  results.push(single.end());
  return results;
}

const CLEAN = 'Subject: x\r\n\r\nline\r\n.\r\n..stuffed\r\n';

describe('LineBreakScanner over a whole message', () => {
  it('passes CRLF-only data, including a "." line and a dot-stuffed line', () => {
    assert.equal(scan(CLEAN), undefined);
    assert.equal(scan(''), undefined);
    assert.equal(scan('no line break at all'), undefined);
  });

  const cases: [string, string, LineBreakFault][] = [
    ['bare CR inside a line', 'ab\rcd\r\n', { kind: 'bare-cr', smuggling: false, offset: 2 }],
    ['bare LF inside a line', 'ab\ncd\r\n', { kind: 'bare-lf', smuggling: false, offset: 2 }],
    ['bare CR at the very end', 'abc\r', { kind: 'bare-cr', smuggling: false, offset: 3 }],
    ['bare LF at the very start', '\nabc', { kind: 'bare-lf', smuggling: false, offset: 0 }],
    ['CR CR LF', 'a\r\r\n', { kind: 'bare-cr', smuggling: false, offset: 1 }],
    ['LF CR (reversed)', 'a\n\rb', { kind: 'bare-lf', smuggling: false, offset: 1 }],
    ['<LF>.<CR><LF>', 'hi\n.\r\nMAIL', { kind: 'bare-lf', smuggling: true, offset: 2 }],
    ['<CR>.<CR><LF>', 'hi\r.\r\nMAIL', { kind: 'bare-cr', smuggling: true, offset: 2 }],
    ['<CR><LF>.<LF>', 'hi\r\n.\nMAIL', { kind: 'bare-lf', smuggling: true, offset: 5 }],
    ['<CR>.<LF>', 'hi\r.\nMAIL', { kind: 'bare-cr', smuggling: true, offset: 2 }],
    ['<LF>.<LF>', 'hi\n.\nMAIL', { kind: 'bare-lf', smuggling: true, offset: 2 }],
    ['<CR><LF>.<CR> then text', 'hi\r\n.\rMAIL', { kind: 'bare-cr', smuggling: true, offset: 5 }],
  ];
  for (const [name, text, expected] of cases) {
    it(`finds ${name}`, () => {
      assert.deepEqual(scan(text), expected);
    });
  }

  it('reports the first fault only', () => {
    assert.deepEqual(scan('ok\r\nx\ry\nz'), { kind: 'bare-cr', smuggling: false, offset: 5 });
  });

  it('does not call a dot next to a bare CR smuggling unless a line break is on its other side', () => {
    assert.deepEqual(scan('a\r.b\r\n'), { kind: 'bare-cr', smuggling: false, offset: 1 });
  });
});

describe('LineBreakScanner across chunk boundaries', () => {
  for (const [name, text] of [
    ['clean data', CLEAN],
    ['a bare CR', 'ab\rcd\r\nef\r\n'],
    ['<CR>.<CR><LF>', 'hi\r.\r\nMAIL FROM:<a@b>\r\n'],
    ['<LF>.<CR><LF>', 'hi\r\nthere\n.\r\nRCPT\r\n'],
    ['a CR as the last byte', 'abc\r'],
  ] as const) {
    it(`gives the whole-buffer answer for ${name} at every split`, () => {
      const expected = scan(text);
      for (const result of scanSplits(text)) assert.deepEqual(result, expected);
    });
  }

  it('scans an async stream of chunks', async () => {
    const chunks = ['Subject: x\r\n', '\r\nhello\r', '.\r\n'].map((s) => Buffer.from(s));
    assert.deepEqual(await scanLineBreaks(Readable.from(chunks)), {
      kind: 'bare-cr',
      smuggling: true,
      offset: 19,
    });
    assert.equal(await scanLineBreaks(Readable.from([Buffer.from(CLEAN)])), undefined);
  });
});
