import { z } from 'zod';
import { idCursorParam } from '../shared/cursor';

/** Resend's list bound (PaginationOptions in node_modules/resend): 1-100, 20 when not given. */
const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;

/**
 * Resend's pagination parameters: `limit`, and `after`, the id of the last item of the previous
 * page. `before` (paging backwards) is not offered: an unknown parameter, refused like any other.
 */
export function resendPageQuery(idPrefix: string) {
  return z.strictObject({
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
    after: idCursorParam(idPrefix).optional(),
  });
}

export interface ResendPageQuery {
  readonly limit: number;
  readonly after?: string | undefined;
}

/** `{object:'list', has_more, data}` of a list read whole (domains, keys, webhooks: a few per account). */
export function resendPage<T extends { readonly id: string }>(items: readonly T[], query: ResendPageQuery) {
  const start = query.after === undefined ? 0 : items.findIndex((item) => item.id === query.after) + 1;
  const data = items.slice(start, start + query.limit);
  return { object: 'list' as const, has_more: start + query.limit < items.length, data };
}
