import type Koa from 'koa';
import type { z } from 'zod';
import { defineError, validationError } from '../shared/app-error';

const payloadTooLarge = defineError('PAYLOAD_TOO_LARGE', 413, 'Request body too large');

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
