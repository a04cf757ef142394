import { z } from 'zod';

/** Every refused cursor reads the same: a client only ever sends back what it was given. */
const NOT_A_CURSOR = 'is not a cursor this API returned';

/** The opaque `nextCursor` of a keyset page that ended at `id`. */
export function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id })).toString('base64url');
}

/** The list answer every keyset page has: the rows, whether more follow, and where to go on. */
export function pageBody<T>(page: {
  readonly data: readonly T[];
  readonly hasMore: boolean;
  readonly lastId: string | null | undefined;
}): { data: readonly T[]; hasMore: boolean; nextCursor: string | null } {
  return {
    data: page.data,
    hasMore: page.hasMore,
    nextCursor: page.lastId && page.hasMore ? encodeCursor(page.lastId) : null,
  };
}

function idPattern(idPrefix: string): RegExp {
  return new RegExp(`^${idPrefix}_[0-9a-z]{26}$`);
}

/**
 * A list query's `cursor` made by `encodeCursor`, decoded by the schema to the id it
 * carries: a cursor that is not one is refused as `query.cursor` like any other bad
 * parameter, not by a separate check in the handler (issue 18 item 6).
 */
export function cursorParam(idPrefix: string) {
  const pattern = idPattern(idPrefix);
  return z
    .string()
    .max(200)
    .transform((cursor, ctx) => {
      try {
        const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown };
        if (typeof parsed.id === 'string' && pattern.test(parsed.id)) return parsed.id;
      } catch {
        /* not JSON: refused below */
      }
      ctx.addIssue({ code: 'custom', message: NOT_A_CURSOR });
      return z.NEVER;
    });
}

/** A cursor that is the last id of the previous page itself (the suppression list's). */
export function idCursorParam(idPrefix: string) {
  return z.string().regex(idPattern(idPrefix), NOT_A_CURSOR);
}
