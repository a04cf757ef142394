import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { HostPort, Parser } from './parsers';
import {
  ConfigValueError,
  bool,
  dnsName,
  hostPort,
  hostname,
  int,
  ipPort,
  list,
  oneOf,
  port,
  secret,
  str,
  url,
} from './parsers';

/** A network webhooks may reach despite the SSRF guard (WEBHOOK_ALLOWED_CIDRS). */
export interface Cidr {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/** `ip/prefix`, or a bare IP (a single address). */
const cidr: Parser<Cidr> = (raw) => {
  const [address = '', prefixText, ...rest] = raw.trim().split('/');
  const version = net.isIP(address);
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (version === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefixText ?? '0') || prefix > max) {
    throw new ConfigValueError(`expected a CIDR such as 10.0.0.0/8 or fd00::/8, got "${raw}"`);
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
};

/** An IP literal of one family (OUTBOUND_SOURCE_ADDRESS, OUTBOUND_SOURCE_ADDRESS_V6). */
function ipOf(version: 4 | 6): Parser<string> {
  return (raw) => {
    const v = raw.trim();
    if (net.isIP(v) !== version)
      throw new ConfigValueError(`expected an IPv${version} address, got "${raw}"`);
    return v;
  };
}

const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** NODE_NAME: short and safe in a log field, a Prometheus label and a timeline entry. */
const nodeNameParser: Parser<string> = (raw) => {
  const v = raw.trim();
  if (!NODE_NAME.test(v)) {
    throw new ConfigValueError(
      `expected 1-63 letters, digits, ".", "_" or "-" starting with a letter or digit, got "${raw}"`,
    );
  }
  return v;
};

/** The host name made a valid NODE_NAME, so the default never fails validation. */
export function defaultNodeName(host: string): string {
  const name = host
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 63);
  return name === '' ? 'node' : name;
}

/** Reads an already-resolved raw value of an earlier key (for derived defaults). */
export type RawLookup = (env: string) => string | undefined;

export interface ConfigKey<T, Optional extends boolean> {
  readonly env: string;
  readonly doc: string;
  /** How the default reads in docs/configuration.md. */
  readonly defaultDoc: string;
  readonly fallback: ((raw: RawLookup) => string | undefined) | undefined;
  readonly parse: Parser<T>;
  readonly optional: Optional;
  /** Never printed: not in logs, not by `ctl config`. */
  readonly secret: boolean;
}

function key<T>(
  env: string,
  parse: Parser<T>,
  fallback: string | ((raw: RawLookup) => string),
  doc: string,
  defaultDoc?: string,
): ConfigKey<T, false> {
  const fb = typeof fallback === 'string' ? () => fallback : fallback;
  return {
    env,
    doc,
    parse,
    defaultDoc: defaultDoc ?? `\`${String(fallback)}\``,
    fallback: fb,
    optional: false,
    secret: false,
  };
}

function optional<T>(env: string, parse: Parser<T>, doc: string, isSecret = false): ConfigKey<T, true> {
  return { env, doc, parse, defaultDoc: 'unset', fallback: undefined, optional: true, secret: isSecret };
}

const need = (raw: RawLookup, env: string): string => {
  const v = raw(env);
  if (v === undefined) throw new Error(`config table order: ${env} must come before its dependants`);
  return v;
};

/**
 * The one table of settings. Order matters: a derived default may read only the
 * keys above it. Names are a contract with operators and the test harness.
 */
export const configTable = {
  nodeEnv: key('NODE_ENV', str, 'production', 'Runtime mode; only informational.'),
  logLevel: key(
    'LOG_LEVEL',
    oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    'info',
    'Minimum level of the JSON log lines written to stdout.',
  ),
  port: key('PORT', port, '3000', 'HTTP API port.'),
  workerPort: key(
    'WORKER_PORT',
    port,
    '4001',
    'Worker liveness port (`GET /health`), bound to BIND_ADDRESS.',
  ),
  workerConcurrency: key(
    'WORKER_CONCURRENCY',
    int(1, 1000),
    '128',
    'Jobs the worker runs at once (sends wait on the MTA, so this is I/O, not cores); their database writes share commits. Split between the queues so none can starve another: a quarter is kept for sending (`email-send`), one slot for each other queue, the rest is shared (see operations.md, "Queues and worker slots").',
  ),
  workerPollMs: key(
    'WORKER_POLL_MS',
    int(10, 600_000),
    '100',
    'How often an idle worker looks for due jobs. Only the fallback for sends: the api tells the worker (through the supervisor) when it commits one, and on PostgreSQL every commit that makes a job due NOTIFYs the workers of every node, so a send does not wait for the poll; scheduled sends, retries and a lost notification do.',
  ),
  workerStallLimitMs: key(
    'WORKER_STALL_LIMIT_MS',
    int(1_000, 600_000),
    '10000',
    "How long a job handler may block the worker's event loop: past it a watchdog thread marks the job it blames failed (no retry), logs `worker_stalled` and kills the worker, which the supervisor restarts.",
  ),
  smtpPort: key('SMTP_PORT', port, '2525', 'Inbound MX port (the image sets 25).'),
  submissionPort: key(
    'SUBMISSION_PORT',
    port,
    '2587',
    'SMTP submission port for applications (the image sets 587); `0` disables it.',
  ),
  smtpsPort: key(
    'SMTPS_PORT',
    port,
    '0',
    'Implicit-TLS submission port (SMTPS, RFC 8314; 465 is the usual value): the submission listener with TLS from the first byte, same API-key AUTH and certificate. `0` (default) disables it.',
  ),
  submissionAllowPlaintext: key(
    'SUBMISSION_ALLOW_PLAINTEXT',
    bool,
    'false',
    'Offer AUTH on the submission port without STARTTLS (loopback tests only: the API key would cross the network in clear).',
  ),
  outboundSender: key(
    'OUTBOUND_SENDER',
    oneOf('haraka', 'worker'),
    'worker',
    "Who delivers outbound mail to the recipients' MX (or `SMTP_RELAY`). `worker` (default): the worker delivers it itself from the job table, DKIM-signed, over pooled SMTP connections, paced per destination, and retries deferred recipients as jobs at `MTA_RETRY_INTERVALS`; one queue, and the MTA runs the MX and submission only (no injection listener: `MTA_INJECT_PORT` unused). `haraka` (deprecated, goes in a later version): the worker hands each message over loopback SMTP to the MTA, whose outbound queue delivers it. [operations.md](operations.md#the-workers-own-sender) describes the sender; [upgrading.md](upgrading.md) what changes (mail left in the MTA's queue is handed to the job table at start).",
  ),
  injectPort: key(
    'MTA_INJECT_PORT',
    port,
    '0',
    "Only with the deprecated `OUTBOUND_SENDER=haraka`: the loopback-only port where the worker hands outbound mail to the MTA (the default, the worker's own sender, opens no such listener). Never exposed. `0` (default): a free port chosen at each start by `npm start` / `node dist/src/main.js` and handed to the worker and MTA, so two appliances on one host do not collide; pin a port when the worker and the MTA run under separate supervisors.",
  ),
  bindAddress: key('BIND_ADDRESS', str, '0.0.0.0', 'Address the public listeners (HTTP, SMTP) bind to.'),
  dataDir: key(
    'DATA_DIR',
    (raw) => path.resolve(raw),
    './data',
    'Where everything durable lives: database, secret key, MTA queue, inbound mail, TLS material.',
  ),
  diskFreeFloorMb: key(
    'DISK_FREE_FLOOR_MB',
    int(0),
    '256',
    'Free-space floor in MiB on the volumes of DATA_DIR, the database and the MTA queue. Below it new mail is refused with a retryable answer (API 503 `EMAIL_QUEUE_FAILED`, SMTP 452 4.3.1) and `/ready` answers 503; the MTA still takes already-accepted mail from the worker down to a quarter of the floor. Keep it well above EMAIL_MAX_SIZE_BYTES times the messages in flight. `0` disables the check.',
  ),
  databaseUrl: key(
    'DATABASE_URL',
    str,
    (raw) => `sqlite:${path.join(path.resolve(need(raw, 'DATA_DIR')), 'mail.db')}`,
    'Database location. `sqlite:<path>` (or a bare path) for the embedded SQLite database; `postgres://user:password@host:port/database` (or `postgresql://`) for a PostgreSQL server shared by several nodes (docs/scaling.md). libpq options such as `sslmode` go in the query string.',
    '`sqlite:$DATA_DIR/mail.db`',
  ),
  databasePoolSize: key(
    'DATABASE_POOL_SIZE',
    int(1, 1000),
    '10',
    "PostgreSQL only: connections each process (api, worker, mta) keeps to the server; each writer thread keeps two more. Mind the server's `max_connections` across all nodes. Ignored on SQLite.",
  ),
  baseUrl: key(
    'BASE_URL',
    url,
    (raw) => `http://localhost:${need(raw, 'PORT')}`,
    'Public URL of the API, used in links the service generates.',
    '`http://localhost:$PORT`',
  ),
  secretKey: optional(
    'SECRET_KEY',
    secret(32),
    'Master secret (≥ 32 characters) from which the keys that seal DKIM private keys and webhook secrets, and sign session tokens, are derived. When unset, one is generated once into `$DATA_DIR/secret.key` (mode 0600) and a warning is logged.',
    true,
  ),
  internalApiToken: optional(
    'INTERNAL_API_TOKEN',
    secret(16),
    'Token for `X-Internal-Token` on `/metrics` and `/internal/*`. When unset those endpoints answer 401.',
    true,
  ),
  signupMode: key(
    'SIGNUP_MODE',
    oneOf('invite', 'open', 'closed'),
    'invite',
    "Who may create an account with `POST /v1/auth/register` (and the dashboard's sign-up form). `invite`: the first account of an empty install registers freely (whoever runs the box); every later one needs an invitation an operator created (`ctl accounts invite`, or the operator screen), single use, bound to its address. `open`: anyone who reaches the API registers; only for a closed network (the boot log and `ctl doctor` warn when `BASE_URL` is not a loopback or private address). `closed`: no registration; operators create accounts with `ctl accounts create`.",
  ),
  mailHostname: key(
    'MAIL_HOSTNAME',
    hostname,
    () => os.hostname(),
    'Name of this mail host: SMTP banner and HELO.',
    'the OS host name',
  ),
  mxHost: key(
    'MX_HOST',
    hostname,
    (raw) => need(raw, 'MAIL_HOSTNAME'),
    'Host that receiving domains point their MX record at.',
    '`$MAIL_HOSTNAME`',
  ),
  spfIncludeHost: key(
    'SPF_INCLUDE_HOST',
    dnsName,
    (raw) => `_spf.${need(raw, 'MAIL_HOSTNAME')}`,
    'Name customers `include:` in their SPF record; publish the appliance IPs there.',
    '`_spf.$MAIL_HOSTNAME`',
  ),
  bounceHost: key(
    'BOUNCE_HOST',
    hostname,
    (raw) => need(raw, 'MAIL_HOSTNAME'),
    "Target of the customers' `bounce.<domain>` CNAME; must resolve to this host.",
    '`$MAIL_HOSTNAME`',
  ),
  dnsServers: optional(
    'DNS_SERVERS',
    list(ipPort(53)),
    'Comma list of `ip[:port]` resolvers used for every DNS lookup (verification, MX, SPF/DKIM/DMARC, reverse DNS). Unset: the system resolvers.',
  ),
  tlsCertFile: optional(
    'TLS_CERT_FILE',
    str,
    'PEM certificate (chain) offered on every SMTP listener (STARTTLS on the MX and submission, SMTPS); set together with `TLS_KEY_FILE`. Polled every 2 s: a renewed pair (e.g. certbot) is used for new connections without a restart. Unset: a self-signed certificate for `MAIL_HOSTNAME`, generated once into `$DATA_DIR/tls/`.',
  ),
  tlsKeyFile: optional('TLS_KEY_FILE', str, 'PEM private key of `TLS_CERT_FILE`.'),
  smtpRelay: optional(
    'SMTP_RELAY',
    hostPort(),
    "`host:port` of a smarthost; when set all outbound mail goes there instead of to the recipients' MX.",
  ),
  mtaSts: key(
    'MTA_STS',
    bool,
    'true',
    "Honour recipient domains' MTA-STS policies (RFC 8461) when delivering to their MX: `enforce` delivers only to the policy's MX hosts over TLS with a valid certificate (else the recipient is deferred with the reason), `testing` only logs. Not applied to `SMTP_RELAY`.",
  ),
  mtaStsTestPort: key(
    'MTA_STS_TEST_PORT',
    int(1, 65535),
    '443',
    'Test-only: the HTTPS port MTA-STS policies are fetched from (`https://mta-sts.<domain>:<port>/.well-known/mta-sts.txt`). RFC 8461 says 443; other values exist for tests on loopback.',
  ),
  extraCaFile: optional(
    'EXTRA_CA_FILE',
    str,
    'PEM file of extra certificate authorities the MTA trusts, besides the system ones, when it verifies certificates (MTA-STS policy hosts and MX hosts under an `enforce` policy). For a private CA, and for tests.',
  ),
  mtaRetryIntervals: key(
    'MTA_RETRY_INTERVALS',
    list(int(5, 7 * 24 * 3600)),
    '60,300,900,3600,7200,14400,28800',
    'Seconds (each ≥ 5: Haraka ignores shorter intervals) between delivery retries of deferred mail; when exhausted the recipient is `failed`.',
  ),
  mtaBackoffBaseS: key(
    'MTA_BACKOFF_BASE_S',
    int(1, 24 * 3600),
    '60',
    'Seconds a destination (the MX provider) is backed off after its first throttling reply (421, 4.7.x "rate limited", refused connections); each further episode doubles it, ±25 % jitter, up to MTA_BACKOFF_MAX_S (docs/deliverability.md).',
  ),
  mtaBackoffMaxS: key(
    'MTA_BACKOFF_MAX_S',
    int(1, 7 * 24 * 3600),
    '1800',
    'Longest back-off of a throttling destination, in seconds.',
  ),
  webhookRetryBaseMs: key(
    'WEBHOOK_RETRY_BASE_MS',
    int(1),
    '30000',
    'Base of the exponential webhook retry backoff (with jitter).',
  ),
  webhookMaxAttempts: key('WEBHOOK_MAX_ATTEMPTS', int(1, 100), '6', 'Delivery attempts per webhook event.'),
  webhookAllowPrivate: key(
    'WEBHOOK_ALLOW_PRIVATE',
    bool,
    'false',
    'Let webhooks reach loopback, private (RFC 1918), link-local, CGNAT and unique-local addresses, for receivers on your own network. Unspecified, multicast, reserved and cloud-metadata addresses stay refused unless listed in WEBHOOK_ALLOWED_CIDRS.',
  ),
  webhookAllowedCidrs: optional(
    'WEBHOOK_ALLOWED_CIDRS',
    list(cidr),
    'Comma list of CIDRs (`10.1.0.0/16`, `fd00::/8`, or a bare address) that webhooks may reach even though the SSRF guard refuses them otherwise.',
  ),
  outboundAllowPrivate: key(
    'OUTBOUND_ALLOW_PRIVATE',
    bool,
    'false',
    'Let outbound mail go to an MX that resolves to a loopback, private (RFC 1918), link-local, CGNAT or unique-local address (an internal mail server). Off: such a recipient fails with "MX resolves to a private address" and no connection is made, so a customer\'s DNS cannot aim port 25 into your network. Other special-purpose addresses need OUTBOUND_ALLOWED_CIDRS. `SMTP_RELAY` is yours and exempt.',
  ),
  outboundAllowedCidrs: optional(
    'OUTBOUND_ALLOWED_CIDRS',
    list(cidr),
    'Comma list of CIDRs (`10.1.0.0/16`, `fd00::/8`, or a bare address) an MX may resolve into although the outbound guard refuses them otherwise.',
  ),
  outboundIpv6: key(
    'OUTBOUND_IPV6',
    bool,
    'true',
    "Deliver to an MX's IPv6 (AAAA) addresses as well as its IPv4 ones. `false` on a host without working IPv6 routes: only A records are tried, so no attempt waits on an unreachable IPv6 address.",
  ),
  outboundSourceAddress: optional(
    'OUTBOUND_SOURCE_ADDRESS',
    ipOf(4),
    'IPv4 address of this host that outbound connections to an MX leave from (a host with several addresses: the one whose PTR, SPF and reputation are set up for mail). Unset: the system chooses.',
  ),
  outboundSourceAddressV6: optional(
    'OUTBOUND_SOURCE_ADDRESS_V6',
    ipOf(6),
    'IPv6 address outbound connections to an IPv6 MX leave from, like OUTBOUND_SOURCE_ADDRESS. Unset: the system chooses.',
  ),
  outboundMxPort: key(
    'OUTBOUND_MX_PORT',
    int(1, 65535),
    '25',
    "**Test-only.** TCP port of every recipient MX (RFC 5321: 25). Another value lets tests deliver to SMTP sinks on loopback without root, and turns off Haraka's skipping of MX addresses that are local to this host (the sinks are local by construction). Never set it in production.",
  ),
  dnsRecheckIntervalS: key(
    'DNS_RECHECK_INTERVAL_S',
    int(10),
    '21600',
    "Seconds between re-checks of verified domains' DNS records.",
  ),
  httpRateLimitPerMinute: key(
    'HTTP_RATE_LIMIT_PER_MINUTE',
    int(1),
    '600',
    'HTTP requests per minute per client IP, on all endpoints.',
  ),
  authRateLimitPer15Min: key(
    'AUTH_RATE_LIMIT_PER_15_MIN',
    int(1),
    '10',
    'Failed attempts per 15 minutes per client IP on the credential endpoints (login, register, change-password); a successful one does not count.',
  ),
  trustProxy: key(
    'TRUST_PROXY',
    bool,
    'false',
    'Take the client IP from `X-Forwarded-For` (set only behind a reverse proxy you run).',
  ),
  trustProxyHops: key(
    'TRUST_PROXY_HOPS',
    int(1, 10),
    '1',
    'With `TRUST_PROXY`: how many reverse proxies you run in front of the API. The client IP is the address that many entries from the right of `X-Forwarded-For` (what the outermost trusted proxy saw); anything a client put further left is ignored.',
  ),
  sessionTtlS: key(
    'SESSION_TTL_S',
    int(60, 30 * 24 * 3600),
    '43200',
    'Lifetime of a session token (JWT `exp`).',
  ),
  rateLimitEmailsPerHour: key(
    'RATE_LIMIT_EMAILS_PER_HOUR',
    int(0),
    '100',
    'Default messages (counted per recipient) per rolling hour per account.',
  ),
  rateLimitEmailsPerDay: key(
    'RATE_LIMIT_EMAILS_PER_DAY',
    int(0),
    '1000',
    'Default messages (counted per recipient) per rolling day per account.',
  ),
  newAccountEmailsPerHour: key(
    'NEW_ACCOUNT_EMAILS_PER_HOUR',
    int(0),
    '20',
    "Hourly allowance during an account's first 24 hours.",
  ),
  emailMaxRecipients: key(
    'EMAIL_MAX_RECIPIENTS',
    int(1, 1000),
    '50',
    'Recipients (to + cc + bcc) per message.',
  ),
  emailMaxSizeBytes: key(
    'EMAIL_MAX_SIZE_BYTES',
    int(1024),
    '10485760',
    'Bodies plus decoded attachment bytes per message (and the SIZE the MX advertises).',
  ),
  abuseAutoSuspend: key(
    'ABUSE_AUTO_SUSPEND',
    bool,
    'false',
    'Suspend accounts automatically when an abuse signal fires.',
  ),
  abuseMinVolume: key(
    'ABUSE_MIN_VOLUME',
    int(1, 1_000_000),
    '100',
    'Attempted recipients an account needs in the 24 h window before `bounce_rate`, `complaint_rate` or `failure_rate` can suspend it automatically (`ABUSE_AUTO_SUSPEND`); below that they are recorded and logged only, so a few (possibly forged) reports against a small sender cannot suspend it.',
  ),
  retentionSucceededJobsDays: key(
    'RETENTION_SUCCEEDED_JOBS_DAYS',
    int(0, 3650),
    '7',
    'Days a succeeded job row is kept after it finished (a week of history to look into); `0` keeps them forever. Queued and running jobs are never deleted.',
  ),
  retentionFailedJobsDays: key(
    'RETENTION_FAILED_JOBS_DAYS',
    int(0, 3650),
    '30',
    "Days a failed job row (attempts exhausted, `last_error` kept) is kept after it failed, so operators can inspect it; `0` keeps them forever. A failed inbound job's raw file goes with it.",
  ),
  retentionWebhookEventsDays: key(
    'RETENTION_WEBHOOK_EVENTS_DAYS',
    int(0, 3650),
    '7',
    'Days a webhook event (outbox row) is kept after it was fanned out, and never while one of its deliveries can still be attempted; `0` keeps them forever.',
  ),
  captureRetentionDays: key(
    'CAPTURE_RETENTION_DAYS',
    int(1, 365),
    '7',
    'Days the built-in capture keeps the signed copy of test-mode mail (`re_test_` keys); the message record and its events stay, its capture then shows `pruned`. Always bounded: captured mail is for trying things out.',
  ),
  nodeName: key(
    'NODE_NAME',
    nodeNameParser,
    () => defaultNodeName(os.hostname()),
    "This node's name in a cluster: a base field of every log line, the `node` label on `/metrics`, and `events[].node` on an email's timeline (whose MTA took and delivered it). Letters, digits, `.`, `_`, `-`; at most 63. Must differ between the nodes sharing one DATABASE_URL: a node's heartbeat and the MTA queue it holds are known by this name.",
    'the OS host name (characters outside the allowed set become `-`)',
  ),
  nodeDeadAfterS: key(
    'NODE_DEAD_AFTER_S',
    int(30, 604_800),
    '600',
    "Seconds without a heartbeat after which a node counts as gone: with the deprecated `OUTBOUND_SENDER=haraka` the cluster sweep hands the emails its MTA accepted and has not finished (`sent`, `deferred`) back to the queue, and a node with an MTA delivers them again (at least once: a node that comes back later may deliver its own queue too; see docs/scaling.md). With the worker's own sender (the default) nothing waits on a node: its claimed jobs return when their lease runs out. Nodes heartbeat every few seconds; keep this well above a restart's length.",
  ),
  shutdownTimeoutMs: key(
    'SHUTDOWN_TIMEOUT_MS',
    int(100, 60000),
    '8000',
    'How long the supervisor waits for children after SIGTERM before SIGKILL (stays under 10 s).',
  ),
} as const;

export type ConfigTable = typeof configTable;

export type Config = {
  readonly [K in keyof ConfigTable]: ConfigTable[K] extends ConfigKey<infer T, infer O>
    ? O extends true
      ? T | undefined
      : T
    : never;
};

export type { HostPort };
