// The audit log in words (issue 29 item 12): who acted and on what, by the names the operator's
// audit view carries (GET /v1/operator/audit: actorEmail, actorKeyName, resourceName), the ids
// only where no name is known (a deleted domain or key).

/** The fields of an audit entry these read. */
export interface WordedAuditEntry {
  readonly actorType: string;
  readonly actorId: string | null;
  readonly actorEmail: string | null;
  readonly actorKeyName: string | null;
  readonly ip: string | null;
  readonly resource: string;
  readonly resourceId: string | null;
  readonly resourceName: string | null;
  readonly details: unknown;
}

/** The operator's actor ids that are no account: ctl's `cli:<login user>`, the internal token. */
const CLI_PREFIX = 'cli:';
const INTERNAL_TOKEN = 'internal-token';

export function actorWords(e: WordedAuditEntry): string {
  const id = e.actorId ?? '';
  switch (e.actorType) {
    case 'user':
      return e.actorEmail ?? `account ${id}`;
    case 'operator':
      if (id.startsWith(CLI_PREFIX)) return `CLI (${id.slice(CLI_PREFIX.length)})`;
      if (id === INTERNAL_TOKEN) return 'the internal API token';
      return `${e.actorEmail ?? id} (operator)`;
    case 'api_key':
      return e.actorKeyName ? `API key “${e.actorKeyName}”` : `API key ${id}`;
    case 'system':
      return 'Mailroom itself';
    case 'anonymous':
      return e.ip ? `someone at ${e.ip}` : 'someone not signed in';
    default:
      return `${e.actorType} ${id}`.trim();
  }
}

const RESOURCE_NOUNS: Readonly<Record<string, string>> = {
  user: 'account',
  branding: 'branding of',
  domain: 'domain',
  api_key: 'API key',
  webhook: 'webhook',
  invitation: 'invitation of',
  suppression: 'suppression of',
  email: 'email',
  inbound: 'inbound message',
};

export function resourceWords(e: WordedAuditEntry): string {
  const noun = RESOURCE_NOUNS[e.resource] ?? e.resource;
  const name = e.resourceName ?? e.resourceId;
  return name ? `${noun} ${name}` : noun;
}

/** The reason an operator gave (suspend, reinstate), which the entry's details keep. */
export function reasonOf(e: WordedAuditEntry): string | null {
  const details = e.details;
  if (typeof details !== 'object' || details === null || !('reason' in details)) return null;
  return typeof details.reason === 'string' ? details.reason : null;
}
