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
  /** Operator overrides of the platform defaults (raise or throttle); null: the default. */
  emails_per_hour: number | null;
  emails_per_day: number | null;
  /** The account's own lower limits (PATCH /v1/settings/limits); null, the default: none. */
  own_emails_per_hour: Generated<number | null>;
  own_emails_per_day: Generated<number | null>;
  /** Bumped on password change: session tokens carry the epoch they were issued in. */
  session_epoch: Generated<number>;
  /** `operator` may use /v1/operator/… (migration 012); made by `ctl accounts grant-operator`. */
  role: Generated<UserRole>;
  created_at: string;
  updated_at: string;
}

export type UserRole = 'user' | 'operator';

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
  /** Issue 20: `full_access` may manage keys; `sending_access` may only send. */
  permission: ApiKeyPermission;
  /** A sending key held to one of the account's domains; null: any. */
  domain_id: string | null;
}

export const API_KEY_PERMISSIONS = ['full_access', 'sending_access'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

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

/** One change of a domain's status (migration 018, issue 19 screen 4). */
export interface DomainStatusChangesTable {
  id: string;
  domain_id: string;
  user_id: string;
  /** Null on the creation entry. */
  from_status: DomainStatus | null;
  to_status: DomainStatus;
  /** `created`, `api` (POST verify), `recheck` (the background job) or `migration` (backfilled). */
  trigger: string;
  /** JSON `{check: 'pass' | code}` of the verification that made the change; null otherwise. */
  checks: string | null;
  created_at: string;
}

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
  /** 1: delivery adds the one-click unsubscribe pair (migration 016, issue 22 item 5). */
  unsubscribe_link: number;
  verified_at: string | null;
  last_checked_at: string | null;
  /** When the re-check job next looks at a verified domain. */
  next_check_at: string | null;
  /** Consecutive re-checks that could not resolve a required record. */
  lookup_failures: number;
  created_at: string;
  updated_at: string;
}

/** Spec: Email lifecycle. `cancelled` is ours: a scheduled message cancelled before it ran (docs/emails.md). */
/** Every message status, in lifecycle order (the spec's list). */
export const EMAIL_STATUSES = [
  'queued',
  'processing',
  'sent',
  'delivered',
  'deferred',
  'bounced',
  'complained',
  'failed',
  'cancelled',
] as const;

export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export interface EmailsTable {
  id: string;
  user_id: string;
  domain_id: string;
  api_key_id: string | null;
  source: 'api' | 'smtp';
  /** The bare address of `from`. */
  from_address: string;
  /** `from` as the header will carry it (`Name <addr>` or the address). */
  from_header: string;
  subject: string;
  /** JSON string[] */
  reply_to: string | null;
  /** JSON object of custom X- headers */
  headers: string | null;
  tags: string | null;
  metadata: string | null;
  html: string | null;
  text: string | null;
  /** RFC 5322 Message-ID including the angle brackets, chosen at acceptance. */
  message_id: string;
  size_bytes: number;
  status: EmailStatus;
  attempts: Generated<number>;
  smtp_response: string | null;
  scheduled_at: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  /** The sending key's mode (migration 011): `test` mail is captured, never delivered. */
  mode: Generated<SendMode>;
  /** 1: test mail sent from a domain not yet verified (allowed for test keys only). */
  unverified_domain: Generated<number>;
  /** NODE_NAME of the node whose MTA took the current hand-off (migration 020); null before it. */
  mta_node: Generated<string | null>;
}

/** `live` mail leaves the appliance; `test` mail ends in the built-in capture (issue 21). */
export type SendMode = 'live' | 'test';

/** The signed message a test send produced (migration 011): what would have left the appliance. */
export interface CapturedMessagesTable {
  email_id: string;
  user_id: string;
  raw: Buffer;
  size_bytes: number;
  captured_at: string;
}

export type RecipientType = 'to' | 'cc' | 'bcc';

export interface EmailRecipientsTable {
  id: string;
  email_id: string;
  user_id: string;
  /** Lower-cased envelope address. */
  address: string;
  /** Display name given with the address (`Name <addr>`), for the To/Cc headers. */
  name: string | null;
  type: RecipientType;
  status: EmailStatus;
  smtp_response: string | null;
  updated_at: string;
}

export interface EmailEventsTable {
  id: string;
  email_id: string;
  user_id: string;
  recipient: string | null;
  type: string;
  message: string | null;
  created_at: string;
  /** Delivery attempts only: `TLSv1.3 TLS_AES_256_GCM_SHA384`, or `plaintext` (migration 019). */
  tls: string | null;
  /** NODE_NAME of the node that wrote the entry (migration 020); null where no node is recorded. */
  node: string | null;
}

export interface EmailAttachmentsTable {
  id: string;
  email_id: string;
  position: number;
  filename: string;
  content_type: string;
  cid: string | null;
  content: Buffer;
  size_bytes: number;
}

/**
 * An SMTP submission as the client sent it, header-cleaned (migration 008): the
 * worker hands these bytes to the MTA instead of building MIME. One row per
 * `emails.source = 'smtp'` message.
 */
export interface EmailRawMessagesTable {
  email_id: string;
  content: Buffer;
}

export interface QuotaLedgerTable {
  id: string;
  user_id: string;
  domain_id: string;
  api_key_id: string | null;
  email_id: string;
  count: number;
  created_at: string;
}

export interface QuotaBucketsTable {
  scope: 'user' | 'domain' | 'api_key';
  scope_id: string;
  /** Start of the minute, `YYYY-MM-DDTHH:MM`. */
  minute: string;
  count: number;
}

/** The minute buckets summed per hour (migration 009's triggers keep them equal). */
export interface QuotaHourBucketsTable {
  scope: 'user' | 'domain' | 'api_key';
  scope_id: string;
  /** `YYYY-MM-DDTHH`. */
  hour: string;
  count: number;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response: string;
  created_at: string;
}

export type SuppressionType = 'hard_bounce' | 'soft_bounce' | 'complaint' | 'manual' | 'unsubscribe';

export interface SuppressionsTable {
  id: string;
  user_id: string;
  email: string;
  type: SuppressionType;
  reason: string | null;
  source_email_id: string | null;
  created_at: string;
}

export interface OutboxTable {
  id: string;
  user_id: string;
  /** Webhook event name (`email.sent` …). */
  event: string;
  email_id: string | null;
  recipient: string | null;
  /** JSON payload as the webhook will carry it. */
  payload: string;
  created_at: string;
  dispatched_at: string | null;
}

export type WebhookDisabledReason = 'consecutive_failures' | 'manual';

export const WEBHOOK_PAYLOAD_FORMATS = ['mailroom', 'resend'] as const;
export type WebhookPayloadFormat = (typeof WEBHOOK_PAYLOAD_FORMATS)[number];

export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** JSON array of subscribed event names. */
  events: string;
  /** The signing secret sealed by shared/seal (context `webhook:<id>`). */
  secret_sealed: string;
  /** The deliveries' body: the spec's payload or Resend's (issue 20). */
  payload_format: Generated<WebhookPayloadFormat>;
  enabled: number;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at: string | null;
  /** Failed delivery attempts since the last success (or re-enable); 20 disables the endpoint. */
  consecutive_failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  webhook_id: string;
  user_id: string;
  /** `X-Mail-Delivery-Id`: one per (outbox event, endpoint), the same on every retry. */
  delivery_id: string;
  outbox_id: string;
  event: string;
  /** 1 on the first attempt of a delivery. */
  attempt: number;
  succeeded: number;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  /** The first RESPONSE_EXCERPT_BYTES of the receiver's body, as UTF-8 (migration 017); null without a response. */
  response_excerpt: string | null;
  created_at: string;
  /** JSON object of the request headers sent (the signatures among them, never the secret); null before migration 027. */
  request_headers: string | null;
  /** The request body sent; null before migration 027. */
  request_body: string | null;
  /** `test` for an attempt of test-mode mail's event or of `webhook.test` (migration 027). */
  mode: Generated<SendMode>;
  /** The delivery id this one redelivers (POST …/attempts/{attemptId}/redeliver), else null. */
  redelivery_of: string | null;
}

/** Messages per account, UTC day of creation and current status; kept by triggers on `emails` (migration 005). */
export interface EmailDailyCountsTable {
  user_id: string;
  /** `YYYY-MM-DD`, the UTC day of `emails.created_at`. */
  day: string;
  status: EmailStatus;
  /**
   * PostgreSQL: the writing connection's share (`pg_backend_pid() % 16`, migration 023), so
   * that concurrent writers do not lock one row; the count is the sum over slots. SQLite: 0.
   */
  slot: Generated<number>;
  count: number;
}

/** The last abuse evaluation of an account (modules/abuse). */
export interface AbuseStateTable {
  user_id: string;
  /** JSON string[]: names of the signals that fired. */
  firing: string;
  /** JSON Signal[] of the last evaluation. */
  signals: string;
  evaluated_at: string;
  /** When firing signals were last recorded (audit and log). */
  detected_at: string | null;
}

/** An account's logo and footer (modules/branding). */
export interface AccountBrandingTable {
  user_id: string;
  logo: Buffer | null;
  /** `image/png`, `image/jpeg` or `image/svg+xml`, from the bytes, never from the client. */
  logo_content_type: string | null;
  logo_size: number | null;
  /** Hex SHA-256 of the logo: the ETag. */
  logo_sha256: string | null;
  logo_updated_at: string | null;
  footer_html: string | null;
  footer_text: string | null;
  updated_at: string;
}

/** One node of a cluster (migration 020), heartbeated by each of its processes. */
export interface NodesTable {
  /** NODE_NAME. */
  name: string;
  /** Comma-separated processes it runs: `api,worker,mta`. */
  roles: string;
  started_at: string;
  last_seen_at: string;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  domains: DomainsTable;
  emails: EmailsTable;
  email_recipients: EmailRecipientsTable;
  email_events: EmailEventsTable;
  nodes: NodesTable;
  email_attachments: EmailAttachmentsTable;
  email_raw_messages: EmailRawMessagesTable;
  quota_ledger: QuotaLedgerTable;
  quota_buckets: QuotaBucketsTable;
  quota_hour_buckets: QuotaHourBucketsTable;
  idempotency_keys: IdempotencyKeysTable;
  suppressions: SuppressionsTable;
  outbox: OutboxTable;
  webhooks: WebhooksTable;
  webhook_attempts: WebhookAttemptsTable;
  domain_status_changes: DomainStatusChangesTable;
  email_daily_counts: EmailDailyCountsTable;
  abuse_state: AbuseStateTable;
  account_branding: AccountBrandingTable;
  bounce_reports: BounceReportsTable;
  inbound_messages: InboundMessagesTable;
  inbound_attachments: InboundAttachmentsTable;
  captured_messages: CapturedMessagesTable;
  raw_messages: RawMessagesTable;
  credential_attempts: CredentialAttemptsTable;
  invitations: InvitationsTable;
  first_account: FirstAccountTable;
}

/** One processed bounce or complaint report (migration 007, modules/bounces): its effects' idempotency key. */
export interface BounceReportsTable {
  /** Hex SHA-256 of the report's bytes. */
  sha256: string;
  /** `mx` (the MX queue hook) or `api` (`POST /internal/bounces`). */
  source: string;
  /** `matched`, `unmatched` or `not_a_report`. */
  outcome: string;
  user_id: string | null;
  email_id: string | null;
  /** `verp`, `verp_header` or `message_id`. */
  matched_by: string | null;
  original_message_id: string | null;
  /** JSON BounceResult[]: what the classifier read. */
  results: string;
  size: number;
  received_at: string;
  processed_at: string;
}

/** One received message on one receiving domain (migration 006, modules/inbound). */
export interface InboundMessagesTable {
  id: string;
  user_id: string;
  domain_id: string | null;
  /**
   * The raw message, owned by this row (unique: the job's dedupe): a file under
   * `$DATA_DIR/inbound/`, or `db:<raw_messages.id>` on PostgreSQL (modules/inbound/raw-store.ts).
   */
  raw_path: string;
  raw_sha256: string;
  size: number;
  /** Envelope sender ('' for the null sender). */
  mail_from: string;
  /** JSON string[]: the envelope recipients at this domain. */
  rcpt_to: string;
  remote_ip: string | null;
  helo: string | null;
  /** The From header's first address. */
  from_address: string | null;
  /** The From header as displayed (`Name <addr>`). */
  from_header: string | null;
  /** JSON string[]. */
  to_addresses: string;
  /** JSON string[]. */
  cc_addresses: string;
  subject: string | null;
  message_id: string | null;
  /** The Date header as RFC 3339, when it parses. */
  date: string | null;
  text: string | null;
  /** Exactly as received: never sanitised (spec: rule 8). */
  html: string | null;
  /** JSON {name, value}[] in message order. */
  headers: string;
  spf_result: string | null;
  dkim_result: string | null;
  dmarc_result: string | null;
  authenticated: number;
  /** Attachments stored (≤ 25). */
  attachment_count: number;
  /** Attachments beyond the 25 stored. */
  attachments_dropped: number;
  read: number;
  /** When the MX answered 250. */
  received_at: string;
  /**
   * Why the message could not be parsed (stored with its envelope and raw bytes only);
   * null when it was parsed (migration 026).
   */
  unparsed_reason: string | null;
  created_at: string;
}

export interface InboundAttachmentsTable {
  id: string;
  inbound_id: string;
  user_id: string;
  /** 0-based order in the message. */
  position: number;
  /** Stripped of path separators and control characters; null when the part had none. */
  filename: string | null;
  /** As the sender declared it; served only through a safe type (modules/inbound). */
  content_type: string;
  content_id: string | null;
  disposition: string | null;
  size: number;
  sha256: string;
  content: Buffer;
}

/**
 * Raw bytes of an accepted inbound message or bounce report on PostgreSQL (migration 021,
 * modules/inbound/raw-database-store.ts); named `db:<id>` by the job and message row that own it.
 */
export interface RawMessagesTable {
  id: string;
  sha256: string;
  size: number;
  content: Buffer;
  created_at: string;
}

/** Credential attempts per key and fixed window (migration 021, modules/accounts/credential-attempts.repository.ts). */
export interface CredentialAttemptsTable {
  /** `<scope>:<client IP>`. */
  key: string;
  /** RFC 3339 start of the window. */
  window_start: string;
  hits: number;
}

/** An operator's invitation to register (migration 025, modules/accounts/invitations). */
export interface InvitationsTable {
  id: string;
  /** The invited address, lowercase: registration must use it. */
  email: string;
  /** Hex SHA-256 of the token; the token itself is shown once. */
  token_hash: string;
  /** The audit actor id of the operator who created it. */
  created_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_user_id: string | null;
  revoked_at: string | null;
}

/** The one row (`first`) naming the account an empty install registered without an invitation. */
export interface FirstAccountTable {
  id: string;
  user_id: string;
  created_at: string;
}
