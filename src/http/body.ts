import type Koa from 'koa';
import type { z } from 'zod';
import { defineError, validationError } from '../shared/app-error';

const payloadTooLarge = defineError('PAYLOAD_TOO_LARGE', 413, 'Request body too large');

/** Reads the raw request body, refusing more than `limit` bytes without buffering them. */
export async function readRawBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limit) throw payloadTooLarge(`Request body exceeds ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw payloadTooLarge(`Request body exceeds ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON object body; malformed JSON is a VALIDATION_ERROR, an empty body is `{}`. */
export async function readJson(
  ctx: Koa.Context,
  limit = 1024 * 1024,
  alreadyRead?: Buffer,
): Promise<unknown> {
  const raw = alreadyRead ?? (await readRawBody(ctx, limit));
  if (raw.length === 0) return {};
  const type = ctx.get('content-type');
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw validationError('Request body must be JSON (Content-Type: application/json)', {
      contentType: type,
    });
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    throw validationError('Malformed JSON in request body', { reason: (err as Error).message });
  }
}

/** Validates a value with a zod schema; failures become VALIDATION_ERROR naming each field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
    message: issue.message,
  }));
  const first = fields[0];
  throw validationError(first ? `${first.field}: ${first.message}` : 'Request failed validation', { fields });
}

export async function readBody<S extends z.ZodType>(
  ctx: Koa.Context,
  schema: S,
  limit?: number,
): Promise<z.infer<S>> {
  return validate(schema, await readJson(ctx, limit));
}
