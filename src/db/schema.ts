import type { Generated } from 'kysely';

/**
 * Database schema types, kept in step with migrations/. Timestamps are RFC 3339
 * UTC strings (see shared/clock); JSON columns are text.
 */
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  status: 'ACTIVE' | 'SUSPENDED';
  suspended_at: string | null;
  suspension_reason: string | null;
  emails_per_hour: number | null;
  emails_per_day: number | null;
  /** Bumped on password change: session tokens carry the epoch they were issued in. */
  session_epoch: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  mode: string;
  key_prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditLogTable {
  id: string;
  user_id: string | null;
  actor_type: 'user' | 'api_key' | 'operator' | 'system' | 'anonymous';
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  action: string;
  resource: string;
  resource_id: string | null;
  details: string | null;
  created_at: string;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobsTable {
  id: string;
  queue: string;
  payload: string;
  state: JobState;
  run_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** `PENDING` until SPF and DKIM first verify; `FAILED` once a verified domain lost a required record. */
export type DomainStatus = 'PENDING' | 'VERIFIED' | 'FAILED';

export interface DomainsTable {
  id: string;
  user_id: string;
  /** Lower-case ASCII (IDNs in their xn-- form), no trailing dot. */
  domain: string;
  status: DomainStatus;
  dkim_selector: string;
  /** Base64 SPKI DER, exactly the `p=` of the published record. */
  dkim_public_key: string;
  /** PKCS#8 PEM sealed by shared/seal (never the clear key). */
  dkim_private_key_encrypted: string;
  receive_enabled: number;
  inbound_label: string;
  /** JSON array of local parts. */
  addresses: string;
  restrict_senders: number;
  verified_at: string | null;
  last_checked_at: string | null;
  /** When the re-check job next looks at a verified domain. */
  next_check_at: string | null;
  /** Consecutive re-checks that could not resolve a required record. */
  lookup_failures: number;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  domains: DomainsTable;
}
