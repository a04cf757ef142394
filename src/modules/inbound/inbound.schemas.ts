import { z } from 'zod';
import { cursorParam } from '../../shared/cursor';

export const listInboundQuery = z.strictObject({
  unread: z.enum(['true', 'false']).optional(),
  search: z.string().max(200).optional(),
  domainId: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: cursorParam('inb').optional(),
});

export const patchInboundBody = z.strictObject({
  read: z.boolean(),
});
