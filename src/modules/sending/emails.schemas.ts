import { z } from 'zod';
import { EMAIL_STATUSES } from '../../db/schema';
import { cursorParam } from '../../shared/cursor';
import { instantParam } from '../../shared/instant-param';
import { hasControlChars } from '../../shared/text';
import { ONE_CLICK } from '../unsubscribe';

const MAX_ATTACHMENTS = 10;
const MAX_METADATA_BYTES = 16 * 1024;
const MAX_HEADERS = 50;
const MAX_TAGS = 50;
const TAG_NAME_MAX = 64;
const TAG_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const TAG_VALUE_MAX = 256;
const MAX_ADDRESSES = 1000;
const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 3600 * 1000;

const singleLine = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasControlChars(s), 'must not contain line breaks, NUL or other control characters');

/** RFC 3339 with an offset, at most 30 days ahead (a time in the past sends now). */
export const scheduledAtField = z.iso
  .datetime({ offset: true, message: 'must be an RFC 3339 date-time' })
  .refine((s) => Date.parse(s) - Date.now() <= MAX_SCHEDULE_AHEAD_MS, 'at most 30 days ahead');

/** PATCH /v1/emails/{id}: the same rule as scheduling at send time. */
export const rescheduleBody = z.strictObject({ scheduledAt: scheduledAtField });

const addressList = z.union([z.string().max(1000), z.array(z.string().max(1000)).max(MAX_ADDRESSES)]);

/**
 * Headers a caller may not set (RFC 5322 originator/destination/identification
 * fields, MIME structure, trace and authentication fields): the service owns them.
 */
const RESERVED_HEADERS = new Set([
  'x-mailroom-email-id',
  'x-mailroom-user',
  'x-originating-ip',
  'x-mailer-id',
]);

// Custom headers must be X- extension fields (RFC 6648 discourages new ones, but mail APIs use them).
const HEADER_NAME = /^X-[A-Za-z0-9][A-Za-z0-9-]{0,75}$/;

/**
 * Standard fields a sender legitimately sets (issue 20): list headers (RFC 2369, RFC 2919,
 * RFC 8058 one-click unsubscribe, which large mailbox providers require of bulk senders)
 * and threading (RFC 5322 §3.6.4). Every other standard field stays the service's.
 */
const STANDARD_HEADERS = new Map(
  ['List-Unsubscribe', 'List-Unsubscribe-Post', 'List-Id', 'In-Reply-To', 'References'].map((n) => [
    n.toLowerCase(),
    n,
  ]),
);

/** The URIs of a List-Unsubscribe value (RFC 2369 §2: `<uri>` items separated by commas), or undefined. */
export function listUnsubscribeUris(value: string): string[] | undefined {
  const uris: string[] = [];
  for (const item of value.split(',')) {
    const t = item.trim();
    if (t.length < 3 || !t.startsWith('<') || !t.endsWith('>')) return undefined;
    const uri = t.slice(1, -1);
    if (uri.includes('<') || uri.includes('>') || uri.includes(' ') || !uri.includes(':')) return undefined;
    uris.push(uri);
  }
  return uris;
}

/** Why the list-unsubscribe pair is refused, or undefined (RFC 2369 §3.2, RFC 8058 §3.1). */
function listUnsubscribeProblem(h: Readonly<Record<string, string>>): [string, string] | undefined {
  const value = (name: string) =>
    Object.entries(h).find(([k]) => k.toLowerCase() === name.toLowerCase()) ?? undefined;
  const unsub = value('List-Unsubscribe');
  const post = value('List-Unsubscribe-Post');
  const uris = unsub && listUnsubscribeUris(unsub[1]);
  if (unsub && !uris) return [unsub[0], 'must be one or more <uri> separated by commas (RFC 2369)'];
  if (!post) return undefined;
  if (post[1] !== ONE_CLICK) return [post[0], `the only value is ${ONE_CLICK} (RFC 8058)`];
  // RFC 8058 §3.1: the POST goes to the https URI of List-Unsubscribe, so there must be exactly one.
  const https = (uris ?? []).filter((u) => u.toLowerCase().startsWith('https://'));
  if (https.length !== 1)
    return [post[0], 'needs a List-Unsubscribe with exactly one https URI (RFC 8058 §3.1)'];
  return undefined;
}

const headers = z.record(z.string(), z.string()).superRefine((h, ctx) => {
  const entries = Object.entries(h);
  if (entries.length > MAX_HEADERS)
    ctx.addIssue({ code: 'custom', message: `at most ${MAX_HEADERS} custom headers` });
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name) && !STANDARD_HEADERS.has(lower)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message:
          'only X- headers, List-Unsubscribe, List-Unsubscribe-Post, List-Id, In-Reply-To and References may be set; To, Bcc, Message-ID, DKIM-Signature and the like are reserved',
      });
    } else if (RESERVED_HEADERS.has(lower)) {
      ctx.addIssue({ code: 'custom', path: [name], message: 'reserved header' });
    }
    if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: 'duplicate header' });
    seen.add(lower);
    if (hasControlChars(value) || value.length > 2000) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'value must be one line of at most 2000 characters',
      });
    }
  }
  const problem = listUnsubscribeProblem(h);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem[0]], message: problem[1] });
});

/**
 * RFC 4648 §4 base64: padded, no whitespace, no `data:` prefix. A linear scan: a
 * regular expression over a 14 MB string exhausts the regex engine's stack.
 */
export function isStrictBase64(s: string): boolean {
  if (s.length % 4 !== 0) return false;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  for (let i = 0; i < s.length - pad; i++) {
    const c = s.charCodeAt(i);
    const ok =
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      c === 43 /* + */ ||
      c === 47; /* / */
    if (!ok) return false;
  }
  return true;
}
const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
const CID = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]{1,200}$/;

const attachment = z
  .strictObject({
    filename: z
      .string()
      .min(1)
      .max(255)
      .refine(
        (s) => !/[/\\]/.test(s) && !hasControlChars(s),
        'must not contain path separators, NUL or control characters',
      ),
    // A byte array is what Resend's SDKs send for a Buffer (issue 20); base64 stays the compact form.
    content: z.union([
      z.string().refine(isStrictBase64, 'must be base64 (RFC 4648, padded, without a data: prefix)'),
      z.array(z.number().int().min(0).max(255)),
    ]),
    contentType: z.string().regex(CONTENT_TYPE, 'must be a MIME type such as application/pdf').optional(),
    cid: z.string().regex(CID, 'must be a Content-ID without angle brackets').optional(),
    /** Resend's name for `cid`. */
    contentId: z.string().regex(CID, 'must be a Content-ID without angle brackets').optional(),
  })
  .transform(({ contentId, ...a }, ctx) => {
    if (contentId !== undefined && a.cid !== undefined && contentId !== a.cid) {
      ctx.addIssue({ code: 'custom', path: ['contentId'], message: 'differs from cid (an alias of it)' });
    }
    return { ...a, cid: a.cid ?? contentId };
  });

const TAG_NAME_MESSAGE = 'tag names: letters, digits, _ . -';

/**
 * The spec's `{name: value}` object, or Resend's `[{name, value}]` list (issue 20) with
 * the same rules; stored and returned as the object.
 */
const tags = z
  .union([
    z.record(z.string().regex(TAG_NAME, TAG_NAME_MESSAGE), z.string().max(256)),
    z
      .array(
        z.strictObject({ name: z.string().regex(TAG_NAME, TAG_NAME_MESSAGE), value: z.string().max(256) }),
      )
      .transform((list, ctx) => {
        const out: Record<string, string> = {};
        list.forEach(({ name, value }, i) => {
          if (Object.hasOwn(out, name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'duplicate tag name' });
          out[name] = value;
        });
        return out;
      }),
  ])
  .refine((t) => Object.keys(t).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`);

export const sendEmailBody = z
  .strictObject({
    from: z.string().min(3).max(500),
    to: addressList,
    subject: singleLine(998),
    html: z.string().optional(),
    text: z.string().optional(),
    replyTo: addressList.optional(),
    cc: addressList.optional(),
    bcc: addressList.optional(),
    headers: headers.optional(),
    tags: tags.optional(),
    metadata: z
      .record(z.string(), z.unknown())
      .refine(
        (m) => JSON.stringify(m).length <= MAX_METADATA_BYTES,
        `at most ${MAX_METADATA_BYTES} bytes as JSON`,
      )
      .optional(),
    scheduledAt: scheduledAtField.optional(),
    attachments: z
      .array(attachment)
      .max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} attachments`)
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.html === undefined && b.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['html'], message: 'one of html or text is required' });
    }
    const cids = new Set<string>();
    (b.attachments ?? []).forEach((a, i) => {
      if (a.cid === undefined) return;
      if (cids.has(a.cid))
        ctx.addIssue({ code: 'custom', path: ['attachments', i, 'cid'], message: 'cid must be unique' });
      cids.add(a.cid);
      if (!(b.html ?? '').includes(`cid:${a.cid}`)) {
        ctx.addIssue({
          code: 'custom',
          path: ['attachments', i, 'cid'],
          message: `the html must reference it as cid:${a.cid}`,
        });
      }
    });
  });

export type SendEmailInput = z.infer<typeof sendEmailBody>;

// `"":0,` is the smallest entry: a record with more keys cannot fit in MAX_METADATA_BYTES.
const MAX_METADATA_KEYS = Math.floor(MAX_METADATA_BYTES / 5);

const ENTRY_BOUNDS: readonly { field: string; max: number; what: string }[] = [
  { field: 'headers', max: MAX_HEADERS, what: 'custom headers' },
  { field: 'tags', max: MAX_TAGS, what: 'tags' },
  { field: 'metadata', max: MAX_METADATA_KEYS, what: 'keys' },
  { field: 'to', max: MAX_ADDRESSES, what: 'addresses' },
  { field: 'cc', max: MAX_ADDRESSES, what: 'addresses' },
  { field: 'bcc', max: MAX_ADDRESSES, what: 'addresses' },
  { field: 'replyTo', max: MAX_ADDRESSES, what: 'addresses' },
  { field: 'attachments', max: MAX_ATTACHMENTS, what: 'attachments' },
];

/**
 * Collections of a send request over their bound, checked before the schema runs: zod
 * validates every entry of a record before a refine can count them (issue 17 finding 5:
 * 600k headers took 6 s and produced 600k issues). Counts keys without visiting values.
 */
export function oversizedCollections(body: unknown): { field: string; message: string }[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const issues: { field: string; message: string }[] = [];
  for (const bound of ENTRY_BOUNDS) {
    const value = (body as Record<string, unknown>)[bound.field];
    if (typeof value !== 'object' || value === null) continue;
    let count = 0;
    if (Array.isArray(value)) count = value.length;
    else for (const key in value) if (Object.hasOwn(value, key) && ++count > bound.max) break;
    if (count > bound.max) issues.push({ field: bound.field, message: `at most ${bound.max} ${bound.what}` });
  }
  return issues;
}

/** `name` or `name:value`, split at the first colon (tag names have none). */
const tagFilter = z
  .string()
  .max(TAG_NAME_MAX + 1 + TAG_VALUE_MAX)
  .transform((raw, ctx) => {
    const colon = raw.indexOf(':');
    const name = colon === -1 ? raw : raw.slice(0, colon);
    if (!TAG_NAME.test(name)) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected `name` or `name:value` (names: letters, digits, _ . -)',
      });
      return z.NEVER;
    }
    return { name, value: colon === -1 ? undefined : raw.slice(colon + 1) };
  });

export const listEmailsQuery = z.strictObject({
  status: z.enum(EMAIL_STATUSES).optional(),
  domainId: z.string().max(64).optional(),
  recipient: z.string().max(254).optional(),
  tag: tagFilter.optional(),
  /** createdAt at or after this instant (or the start of this UTC day). */
  from: instantParam('from').optional(),
  /** createdAt before this instant (or the end of this UTC day). */
  to: instantParam('to').optional(),
  /** Free text over subject and recipient addresses; bounded, since every row is scanned for it. */
  q: z.string().trim().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: cursorParam('email').optional(),
  total: z
    .enum(['0', '1'])
    .default('0')
    .describe(
      '1: the answer also carries `total`, how many messages match the filters (counted up to 10,000)',
    ),
});
