import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffLogoType } from '../../../src/modules/branding/logo-type';

/** A 1×1 PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_START = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const svg = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('sniffLogoType', () => {
  it('recognises PNG by signature and IHDR', () => {
    assert.equal(sniffLogoType(PNG_1X1), 'image/png');
    assert.equal(sniffLogoType(PNG_1X1.subarray(0, 8)), undefined);
    const noIhdr = Buffer.from(PNG_1X1);
    noIhdr.write('XXXX', 12, 'latin1');
    assert.equal(sniffLogoType(noIhdr), undefined);
  });

  it('recognises JPEG by its SOI marker', () => {
    assert.equal(sniffLogoType(JPEG_START), 'image/jpeg');
    assert.equal(sniffLogoType(Buffer.from('ffd8', 'hex')), undefined);
  });

  it('recognises SVG by its root element after prolog, comments and doctype', () => {
    assert.equal(sniffLogoType(svg('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'image/svg+xml');
    assert.equal(
      sniffLogoType(
        svg(
          '\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg>\n</svg>',
        ),
      ),
      'image/svg+xml',
    );
  });

  it('refuses what only looks like an image', () => {
    for (const bytes of [
      svg('<html><body><svg></svg></body></html>'),
      svg('<svgfoo/>'),
      svg('GIF89a'),
      svg('{"logo": true}'),
      // An internal DTD subset is how entity expansion bombs start.
      svg('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>'),
      Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe]), // `<svg ` then invalid UTF-8
      Buffer.alloc(0),
    ]) {
      assert.equal(sniffLogoType(bytes), undefined, bytes.toString('latin1'));
    }
  });
});
