import type { Db } from '../../db/connect';
import type { ApiKeyCredentials } from '../../http/authenticate';
import { authenticateApiKey, isApiKeyToken, keyMode } from './api-keys.usecases';

/** The route kit's API-key credential (src/http/authenticate.ts): a token is a key by its prefix. */
export function apiKeyCredentials(db: Db): ApiKeyCredentials {
  return {
    recognises: isApiKeyToken,
    async verify(token) {
      const key = await authenticateApiKey(db, token);
      if (!key) return undefined;
      return {
        userId: key.user_id,
        keyId: key.id,
        mode: keyMode(key),
        permission: key.permission,
        domainId: key.domain_id,
      };
    },
  };
}
