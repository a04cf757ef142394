import addressparser from 'nodemailer/lib/addressparser';

/** One header field, unfolded value, as it appeared (name case kept). */
export interface HeaderField {
  readonly name: string;
  /** The whole field as sent, continuation lines included, without the final CRLF. */
  readonly raw: string;
  readonly value: string;
}

export interface ParsedSubmission {
  readonly fields: readonly HeaderField[];
  readonly body: Buffer;
}

/** Headers we own: removed from a submitted message before it is stored. */
export const REMOVED_HEADERS: ReadonlySet<string> = new Set(['dkim-signature', 'return-path', 'bcc']);

/** Splits a message (CRLF or LF) into its header fields and body. */
export function parseSubmission(raw: Buffer): ParsedSubmission {
  const text = raw.toString('latin1');
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  let end: number;
  let sep: number;
  if (crlf !== -1 && (lf === -1 || crlf <= lf)) {
    end = crlf;
    sep = 4;
  } else if (lf !== -1) {
    end = lf;
    sep = 2;
  } else {
    end = text.length;
    sep = 0;
  }
  const lines = text.slice(0, end).split(/\r?\n/);
  const fields: HeaderField[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && fields.length > 0) {
      const last = fields[fields.length - 1] as HeaderField;
      fields[fields.length - 1] = {
        ...last,
        raw: `${last.raw}\r\n${line}`,
        value: `${last.value} ${line.trim()}`,
      };
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.push({ name: line.slice(0, colon).trim(), raw: line, value: line.slice(colon + 1).trim() });
  }
  return { fields, body: raw.subarray(Math.min(raw.length, end + sep)) };
}

export function headerValue(fields: readonly HeaderField[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return fields.find((f) => f.name.toLowerCase() === lower)?.value;
}

/**
 * RFC 5322 §3.6: the originator fields occur at most once. A second From (or
 * Sender, Reply-To) is what a reader's client may show while the first is the
 * one signed and checked (issue 17, finding 4), so a submission carrying one is
 * refused rather than relayed. From and Sender must each name one mailbox: the
 * sender is the account's verified address, never a list (§3.6.2 allows a
 * From mailbox-list only with a Sender, which would then be the one checked).
 * Undefined: nothing to object to; else why, for the reply.
 */
export function originatorFieldsRefusal(fields: readonly HeaderField[]): string | undefined {
  for (const name of ['From', 'Sender', 'Reply-To']) {
    const count = fields.filter((f) => f.name.toLowerCase() === name.toLowerCase()).length;
    if (count > 1) return `The message has ${count} ${name} header fields; RFC 5322 §3.6 allows one`;
  }
  for (const name of ['from', 'sender']) {
    const value = headerValue(fields, name);
    if (value === undefined) continue;
    const mailboxes = addressparser(value);
    if (mailboxes.length !== 1 || mailboxes[0] === undefined || 'group' in mailboxes[0]) {
      return `The ${name === 'from' ? 'From' : 'Sender'} header must name exactly one mailbox`;
    }
  }
  return undefined;
}

/** Addresses a To or Cc header lists; `type` of a recipient: `to`, `cc`, else `bcc`. */
export function recipientType(fields: readonly HeaderField[], address: string): 'to' | 'cc' | 'bcc' {
  const lower = address.toLowerCase();
  for (const type of ['to', 'cc'] as const) {
    for (const f of fields) {
      if (f.name.toLowerCase() !== type) continue;
      if (flatten(addressparser(f.value)).some((a) => a.toLowerCase() === lower)) return type;
    }
  }
  return 'bcc';
}

type Parsed = ReturnType<typeof addressparser>;
function flatten(list: Parsed): string[] {
  const out: string[] = [];
  for (const item of list) {
    if ('group' in item && Array.isArray(item.group)) out.push(...flatten(item.group));
    else if ('address' in item && typeof item.address === 'string' && item.address !== '')
      out.push(item.address);
  }
  return out;
}

/**
 * The message to store: the client's header fields minus the ones we own
 * (DKIM-Signature, Return-Path, Bcc), a Message-ID added when missing, CRLF
 * line ends, body untouched.
 */
export function cleanSubmission(parsed: ParsedSubmission, messageId: string | undefined): Buffer {
  const kept = parsed.fields.filter((f) => !REMOVED_HEADERS.has(f.name.toLowerCase())).map((f) => f.raw);
  if (messageId !== undefined) kept.push(`Message-ID: ${messageId}`);
  const body = parsed.body.toString('latin1').replace(/\r?\n/g, '\r\n');
  return Buffer.concat([Buffer.from(`${kept.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body, 'latin1')]);
}
