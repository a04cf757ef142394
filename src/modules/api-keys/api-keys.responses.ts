import { z } from 'zod';
import { API_KEY_PERMISSIONS } from '../../db/schema';
import { listOf, timestamp } from '../../http/response-schema';

/** api-keys.usecases.ts apiKeyView */
export const ApiKeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    keyPrefix: z.string(),
    permission: z.enum(API_KEY_PERMISSIONS),
    domainId: z.string().nullable(),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

/** The 201 of POST /v1/api-keys: the only response that carries the secret. */
export const CreatedApiKeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    keyPrefix: z.string(),
    permission: z.enum(API_KEY_PERMISSIONS),
    domainId: z.string().nullable(),
    token: z
      .string()
      .describe('The secret `re_live_…` (or `re_test_…` for a test key); shown only in this response.'),
    warning: z.string(),
    createdAt: timestamp,
  })
  .meta({ id: 'CreatedApiKey' });

export const ApiKeyList = listOf(ApiKeyView).meta({ id: 'ApiKeyList' });
