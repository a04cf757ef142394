// The body of an RFC 8058 one-click POST. §3.1: the sender's List-Unsubscribe-Post header is
// `List-Unsubscribe=One-Click`, and §3.2: the mail receiver POSTs exactly that key/value pair,
// as application/x-www-form-urlencoded or as multipart/form-data (RFC 7578). Only a form whose
// field `List-Unsubscribe` has the value `One-Click` counts, so a stray POST (a scanner, a
// preview fetcher, a form with those words somewhere else) unsubscribes nobody.

const FIELD = 'List-Unsubscribe';
const VALUE = 'One-Click';

// RFC 2046 §5.1.1: 1 to 70 characters, quoted when it holds specials.
const BOUNDARY = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i;
// RFC 7578 §4.2: Content-Disposition: form-data; name="<field>".
const DISPOSITION = /^content-disposition:\s*form-data\s*;(.*)$/im;
const NAME = /(?:^|;)\s*name\s*=\s*(?:"([^"]*)"|([^\s;"]+))/i;

/**
 * The value of the first part named `field` of a multipart/form-data body, or undefined.
 * A part is `--boundary CRLF headers CRLF CRLF value CRLF`; the body ends at `--boundary--`.
 */
export function multipartField(body: string, contentType: string, field: string): string | undefined {
  const b = BOUNDARY.exec(contentType);
  const boundary = b?.[1] ?? b?.[2];
  if (boundary === undefined) return undefined;
  const delimiter = `--${boundary}`;
  // Delimiters open a line (RFC 2046 §5.1.1): the first may be the body's first line.
  const sections = `\r\n${body}`.split(`\r\n${delimiter}`);
  for (const section of sections.slice(1)) {
    if (section.startsWith('--')) break;
    // Transport padding (linear white space) may follow a delimiter before its CRLF.
    const part = section.replace(/^[ \t]*\r\n/, '');
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) continue;
    const disposition = DISPOSITION.exec(part.slice(0, headerEnd));
    const name = NAME.exec(disposition?.[1] ?? '');
    if ((name?.[1] ?? name?.[2]) === field) return part.slice(headerEnd + 4);
  }
  return undefined;
}

/** Whether `raw`, sent with `contentType`, is the one-click form (see the top of this file). */
export function isOneClickBody(contentType: string, raw: Buffer): boolean {
  const type = contentType.toLowerCase();
  const text = raw.toString('utf8');
  if (type.startsWith('multipart/form-data')) return multipartField(text, contentType, FIELD) === VALUE;
  return new URLSearchParams(text).get(FIELD) === VALUE;
}
