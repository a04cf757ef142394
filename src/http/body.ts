import type Koa from 'koa';
import type { z } from 'zod';
import type { FieldIssue } from '../shared/app-error';
import { defineError, validationError } from '../shared/app-error';

const payloadTooLarge = defineError('PAYLOAD_TOO_LARGE', 413, 'Request body too large');
const unsupportedMediaType = defineError(
  'UNSUPPORTED_MEDIA_TYPE',
  415,
  'Request body must be sent with Content-Type: application/json',
);

/** Issues listed in a VALIDATION_ERROR's `details.fields`; the rest are only counted. */
export const MAX_REPORTED_FIELDS = 20;
// A field path or message longer than this is cut (zod lists every unknown key in one message).
const MAX_ISSUE_CHARS = 300;
/** Arrays and objects nested deeper than this are refused before JSON.parse sees the text. */
export const MAX_JSON_DEPTH = 32;
/**
 * Values (array elements, object members) a JSON body may hold, counted before parsing: the
 * largest valid send has under 13,000 (four lists of 1,000 addresses, 16 KiB of metadata),
 * other bodies far fewer. Parsing 600k members took over a second (issue 17 finding 5).
 */
export const MAX_JSON_VALUES = 100_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Why JSON text is refused before parsing (nested deeper than `maxDepth`, or more than
 * `maxValues` values), or undefined. One linear pass over the bytes (issue 17 finding 5:
 * 3M nested `[` ended in a RangeError, a 500, further down). Strings are skipped with
 * indexOf, so a large base64 attachment costs a native scan. Malformed text is left to
 * JSON.parse to report.
 */
export function jsonShapeProblem(raw: Buffer, maxDepth: number, maxValues: number): string | undefined {
  let depth = 0;
  // Every value after the first of an array or object follows a comma.
  let commas = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === QUOTE) {
      // The closing quote: the next one not escaped by an odd run of backslashes.
      let end = raw.indexOf(QUOTE, i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (raw[end - 1 - slashes] === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = raw.indexOf(QUOTE, end + 1);
      }
      if (end === -1) return undefined;
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    } else if (c === 0x2c /* , */ && ++commas >= maxValues) {
      return `JSON body holds more than ${maxValues} values`;
    }
  }
  return undefined;
}

/**
 * Whether the request declares more than `threshold` body bytes, or does not declare its
 * length at all (chunked): a route that authenticates after validating uses it to
 * authenticate first when the body is large.
 */
export function declaresLargeBody(ctx: Koa.Context, threshold: number): boolean {
  const length = ctx.get('content-length');
  if (length) return !(Number(length) <= threshold);
  return ctx.get('transfer-encoding') !== '';
}

/**
 * Reads the raw request body, refusing more than `limit` bytes without buffering them.
 * Stream events rather than `for await`: the async iterator costs a promise and an
 * iterator object per chunk, on every request (issue 11). Going past the limit
 * destroys the request, as leaving a `for await` loop would.
 */
export async function readRawBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limit) throw payloadTooLarge(`Request body exceeds ${limit} bytes`);
  const req = ctx.req;
  if (req.readableEnded) return Buffer.alloc(0);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err: Error | undefined): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done(payloadTooLarge(`Request body exceeds ${limit} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => done(undefined);
    const onError = (err: Error): void => done(err);
    // A client that goes away mid-body: the iterator version failed with ERR_STREAM_PREMATURE_CLOSE.
    const onClose = (): void => {
      if (!req.complete)
        done(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Refuses a request that carries a body (or announces one) unless its Content-Type is
 * `application/json`, parameters allowed (`; charset=utf-8`), case ignored. A missing type is
 * refused too: a cross-site "simple" POST (text/plain, or no type) then reaches no route that
 * reads JSON. `application/*+json` is refused: those name other formats
 * (JSON Patch, Merge Patch) that no route implements. A request without a body passes, so a
 * route whose body is optional can be called bare. Route groups call it before a declared
 * body's route authenticates or counts a credential attempt; readJson calls it again.
 */
export function requireJsonContentType(ctx: Koa.Context, bodyBytes?: number): void {
  const hasBody =
    bodyBytes === undefined
      ? Number(ctx.get('content-length') || '0') > 0 || ctx.get('transfer-encoding') !== ''
      : bodyBytes > 0;
  if (!hasBody) return;
  const type = ctx.get('content-type');
  if (type.split(';', 1)[0]?.trim().toLowerCase() === 'application/json') return;
  throw unsupportedMediaType(
    `Request body must be sent with Content-Type: application/json${type ? `, not ${clip(type)}` : ''}`,
    { contentType: type === '' ? null : clip(type), expected: 'application/json' },
  );
}

/** Parses a JSON object body; an empty body is `{}`, malformed JSON a VALIDATION_ERROR. */
export async function readJson(
  ctx: Koa.Context,
  limit = 1024 * 1024,
  alreadyRead?: Buffer,
): Promise<unknown> {
  const raw = alreadyRead ?? (await readRawBody(ctx, limit));
  requireJsonContentType(ctx, raw.length);
  if (raw.length === 0) return {};
  const problem = jsonShapeProblem(raw, MAX_JSON_DEPTH, MAX_JSON_VALUES);
  if (problem !== undefined) {
    throw validationError(problem, {
      fields: [{ field: '(body)', message: problem }],
      maxDepth: MAX_JSON_DEPTH,
      maxValues: MAX_JSON_VALUES,
    });
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    const reason = clip((err as Error).message);
    throw validationError('Malformed JSON in request body', {
      fields: [{ field: '(body)', message: `malformed JSON: ${reason}` }],
      reason,
    });
  }
}

/**
 * A VALIDATION_ERROR naming the first MAX_REPORTED_FIELDS issues, each cut to a bounded
 * length, and counting the rest in `details.omittedFields`: the answer to a hostile body
 * stays small whatever the body holds (issue 17 finding 5: 600k bad headers answered 82 MB).
 */
export function validationFailure(issues: readonly FieldIssue[]) {
  const fields = issues.slice(0, MAX_REPORTED_FIELDS).map((issue) => ({
    field: clip(issue.field),
    message: clip(issue.message),
  }));
  const omitted = issues.length - fields.length;
  const first = fields[0];
  return validationError(
    first ? `${first.field}: ${first.message}` : 'Request failed validation',
    omitted > 0 ? { fields, omittedFields: omitted } : { fields },
  );
}

function clip(text: string): string {
  return text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS)}…` : text;
}

/**
 * A union's failure as the one alternative the value was of the shape of (tags given as a
 * list: the list's problems, not "Invalid input"); the union's own issue when none or
 * several were.
 */
function unionIssues(issue: z.core.$ZodIssue): readonly z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const shaped = issue.errors.filter(
    (branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0),
  );
  const only = shaped.length === 1 ? shaped[0] : undefined;
  if (!only || only.length === 0) return [issue];
  return only.flatMap((i) => unionIssues({ ...i, path: [...issue.path, ...i.path] }));
}

/** Validates a body with a zod schema; failures become VALIDATION_ERROR naming each field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailure(zodFieldIssues(result.error.issues));
}

/** zod's issues as FieldIssues: `to.0`, `(body)` for the body itself. */
export function zodFieldIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.flatMap(unionIssues).map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
    message: issue.message,
  }));
}

/**
 * Validates a query string with a route's strict zod object. Fields are `query.<name>`, so
 * a client tells them from body fields (issue 18 item 6); each unknown parameter is named
 * on its own rather than in one "Unrecognized keys" message about the whole query.
 */
export function validateQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  throw validationFailure(
    result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: `query.${key}`, message: 'unknown query parameter' }))
        : [
            {
              field: issue.path.length > 0 ? `query.${issue.path.join('.')}` : '(query)',
              message: issue.message,
            },
          ],
    ),
  );
}

export async function readBody<S extends z.ZodType>(
  ctx: Koa.Context,
  schema: S,
  limit?: number,
): Promise<z.infer<S>> {
  return validate(schema, await readJson(ctx, limit));
}
