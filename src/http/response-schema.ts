/**
 * Building blocks for the zod schemas that describe API responses (issue 18 item 5). Each
 * view declares its schema beside it with `.meta({ id })`; a route names that schema in its
 * `ok.schema`, and openapi.ts turns every one into `components.schemas.<id>`. Response
 * objects are closed (`additionalProperties: false` in the document), so a view that grows a
 * field fails test/integration/openapi.test.ts until its schema follows.
 */
import { z } from 'zod';

/** An ISO 8601 timestamp as the views write it (`Date#toISOString`). */
export const timestamp = z.iso.datetime();
/** A calendar day, `YYYY-MM-DD`. */
export const day = z.iso.date();

/** `{data: T[]}` — a list that is not paged. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

/** `{data, hasMore, nextCursor}` — a keyset page (src/shared/cursor.ts pageBody). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), hasMore: z.boolean(), nextCursor: z.string().nullable() });
}

/** `{id, deleted: true}` — what a DELETE answers. */
export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'Deleted' });
