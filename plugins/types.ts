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
}

/** @haraka/email-address 3.x: properties, not methods. */
export interface HarakaAddress {
  readonly user: string | null;
  readonly host: string | null;
  format(): string;
}

/** haraka-message-stream: replays the received message (CRLF, dot-unstuffed). */
export type HarakaMessageStream = AsyncIterable<Buffer>;

export interface HarakaTransaction {
  readonly uuid: string;
  readonly rcpt_to: readonly HarakaAddress[];
  readonly rcpt_count: { readonly accept: number; readonly tempfail: number; readonly reject: number };
  readonly data_bytes: number;
  readonly message_stream: HarakaMessageStream;
}

export interface HarakaConnection extends HarakaLogging {
  readonly uuid: string;
  readonly transaction: HarakaTransaction | null;
  readonly remote: { readonly ip: string | null };
  /** Writes a reply; `msg` may be a DSN-shaped object, whose `code` then wins. */
  respond(code: number, msg: unknown, callback?: () => void): void;
  reset_transaction(callback?: () => void): void;
}
