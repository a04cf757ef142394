/** Logo formats the appliance serves; the type always comes from the bytes, never from the client. */
export type LogoType = 'image/png' | 'image/jpeg' | 'image/svg+xml';

export const LOGO_TYPES: readonly LogoType[] = ['image/png', 'image/jpeg', 'image/svg+xml'];

/** File name extension per type, for Content-Disposition. */
export const LOGO_EXTENSION: Readonly<Record<LogoType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: the 8-byte signature, then the IHDR chunk that must come first (PNG spec §5.2, §11.2.2). */
function isPng(b: Buffer): boolean {
  return b.length >= 24 && b.subarray(0, 8).equals(PNG_SIGNATURE) && b.toString('latin1', 12, 16) === 'IHDR';
}

/** JPEG: SOI (FF D8) followed by another marker (FF xx), as every JFIF/Exif file starts. */
function isJpeg(b: Buffer): boolean {
  return b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

/**
 * SVG: valid UTF-8 text whose root element is `<svg`, after an optional BOM, XML
 * declaration, comments and a DOCTYPE. A DOCTYPE with an internal subset (`[`) is
 * refused: entity definitions are how XML bombs expand.
 */
function isSvg(b: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return false;
  }
  if (text.includes('\u0000')) return false;
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    const before = rest;
    rest = rest.replace(/^\s+/, '');
    rest = rest.replace(/^<\?xml\b[^>]*\?>/, '');
    rest = rest.replace(/^<!--[\s\S]*?-->/, '');
    const doctype = /^<!DOCTYPE\b[^>]*>/i.exec(rest);
    if (doctype) {
      if (doctype[0].includes('[')) return false;
      rest = rest.slice(doctype[0].length);
    }
    if (rest === before) break;
  }
  return /^<svg[\s/>]/.test(rest);
}

/** What the bytes are, if they are a logo this appliance accepts. */
export function sniffLogoType(bytes: Buffer): LogoType | undefined {
  if (isPng(bytes)) return 'image/png';
  if (isJpeg(bytes)) return 'image/jpeg';
  if (isSvg(bytes)) return 'image/svg+xml';
  return undefined;
}
