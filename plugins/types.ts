/**
 * The slice of Haraka 3.3.4's API our plugins use, typed structurally (Haraka
 * ships no types). Names follow Haraka's: see node_modules/Haraka/plugins.js,
 * connection.js and transaction.js.
 */

/** A hook's callback: `next()` = no opinion (CONT), `next(code, msg)` = a verdict. */
export type HarakaNext = (retval?: number, msg?: unknown) => void;

/** Haraka's log methods; arguments are strings, Errors, Haraka objects, or a plain object of fields. */
export type HarakaLogFn = (...args: unknown[]) => void;

export interface HarakaLogging {
  logdebug: HarakaLogFn;
  loginfo: HarakaLogFn;
  lognotice: HarakaLogFn;
  logwarn: HarakaLogFn;
  logerror: HarakaLogFn;
  logcrit: HarakaLogFn;
}

/** haraka-config, as `this.config` of a plugin (rooted at `$DATA_DIR/mta/config`). */
export interface HarakaConfig {
  get(name: string, type?: string): unknown;
}

/** `this` inside register() and hooks: Haraka copies our exports onto its Plugin object. */
export interface HarakaPlugin extends HarakaLogging {
  readonly name: string;
  readonly config: HarakaConfig;
  register_hook(hook: string, method: string, priority?: number): void;
  /** Copies a core plugin's methods that we do not define onto this one (plugins.js `inherits`). */
  inherits(parent: string): void;
  /** `require('./<name>')` from Haraka's own directory: its singletons (`outbound`, `outbound/queue` …). */
  haraka_require(name: string): unknown;
}

/** @haraka/email-address 3.x: properties, not methods. */
export interface HarakaAddress {
  readonly user: string | null;
  readonly host: string | null;
  /** `user@host` ('' for the null sender). */
  readonly address: string;
  format(): string;
}

/** A header block (haraka-email-message Header). */
export interface HarakaHeader {
  get(name: string): string;
}

/** haraka-message-stream: replays the received message (CRLF, dot-unstuffed). */
export type HarakaMessageStream = AsyncIterable<Buffer>;

export interface HarakaTransaction {
  readonly uuid: string;
  readonly mail_from: HarakaAddress | null;
  readonly rcpt_to: readonly HarakaAddress[];
  readonly rcpt_count: { readonly accept: number; readonly tempfail: number; readonly reject: number };
  readonly data_bytes: number;
  readonly message_stream: HarakaMessageStream;
  readonly header: HarakaHeader;
  /** Persisted into every queue file of the message (outbound todo.notes): never put a secret here. */
  readonly notes: Record<string, unknown>;
  add_leading_header(name: string, value: string): void;
  remove_header(name: string): void;
}

export interface HarakaConnection extends HarakaLogging {
  readonly uuid: string;
  readonly transaction: HarakaTransaction | null;
  readonly remote: { readonly ip: string | null };
  readonly local: { readonly port: number | null };
  /** Set by auth_base after a successful AUTH: RCPTs without an opinion become 250, DATA goes to queue_outbound. */
  readonly relaying: boolean;
  /** Per-connection notes (auth_base keeps its AUTH state here). */
  readonly notes: Record<string, unknown>;
  /** The EHLO keywords; `capabilities` hooks may edit them before Haraka answers. */
  capabilities: string[];
  /** Writes a reply; `msg` may be a DSN-shaped object, whose `code` then wins. */
  respond(code: number, msg: unknown, callback?: () => void): void;
  reset_transaction(callback?: () => void): void;
}

/** Outbound: `pre_send_trans_email` gets `{transaction}` with log methods, not a Connection. */
export interface HarakaSendContext extends HarakaLogging {
  readonly transaction: HarakaTransaction;
}

/** A recipient in a queue file, with what Haraka recorded about its delivery (outbound/hmail.js). */
export interface HarakaRecipient extends HarakaAddress {
  readonly dsn_smtp_code?: string | number;
  readonly dsn_smtp_extc?: string;
  readonly dsn_smtp_response?: string;
  readonly dsn_status?: string;
  readonly dsn_msg?: string;
  readonly dsn_remote_mta?: string;
}

/** The queue file header (outbound/todo.js), read back with Address objects and Notes. */
export interface HarakaTodo {
  readonly domain: string;
  readonly mail_from: HarakaAddress;
  readonly rcpt_to: readonly HarakaRecipient[];
  readonly notes: Record<string, unknown>;
  readonly uuid: string;
}

/** One queue file being delivered (outbound/hmail.js HMailItem): the object of get_mx/delivered/deferred/bounce. */
export interface HarakaHmail extends HarakaLogging {
  readonly todo: HarakaTodo | null;
  /** Failed attempts so far; temp_fail() increments it before the `deferred` hook runs. */
  readonly num_failures: number;
  readonly filename: string;
}
