/**
 * Haraka writes its log to stdout: JSON records with `log.ini format=json`, but
 * also plain lines (`logger.log()` calls made before the format applies, and
 * console output of its dependencies). The mta process reads every line and
 * re-emits it through our logger, so the appliance's stdout is JSON lines with a
 * stable `event` field throughout.
 */
export type PinoLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export interface MappedLogLine {
  readonly level: PinoLevel;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly msg: string;
}

/** Haraka's levels (logger.js), most to least verbose. */
const HARAKA_LEVELS: Readonly<Record<string, PinoLevel>> = {
  DATA: 'trace',
  PROTOCOL: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  NOTICE: 'info',
  WARN: 'warn',
  ERROR: 'error',
  CRIT: 'fatal',
  ALERT: 'fatal',
  EMERG: 'fatal',
};

/** Our plugins may name their own event (`{event: 'smtp_rcpt_rejected'}` in the log object). */
const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export const HARAKA_LOG_EVENT = 'haraka_log';

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Maps one line of the Haraka child's stdout or stderr; undefined for blank lines. */
export function mapHarakaLine(line: string, stream: 'stdout' | 'stderr'): MappedLogLine | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  const record = parseObject(text);
  const harakaLevel = record?.level;
  const message = record?.message;
  if (record === undefined || typeof harakaLevel !== 'string' || typeof message !== 'string') {
    // Plain text: Haraka's early notices on stdout, Node warnings or a crash on stderr.
    return {
      level: stream === 'stderr' ? 'warn' : 'info',
      fields: { event: HARAKA_LOG_EVENT, stream },
      msg: text,
    };
  }
  const { level: _level, message: _message, uuid, origin, event, ...data } = record;
  const fields: Record<string, unknown> = {
    event: typeof event === 'string' && EVENT_NAME.test(event) ? event : HARAKA_LOG_EVENT,
    harakaLevel,
  };
  if (typeof origin === 'string') fields.origin = origin;
  // '-' is Haraka's "no connection"; a connection uuid ties the lines of one SMTP session.
  if (typeof uuid === 'string' && uuid !== '-') fields.uuid = uuid;
  if (Object.keys(data).length > 0) fields.data = data;
  return { level: HARAKA_LEVELS[harakaLevel.toUpperCase()] ?? 'info', fields, msg: message };
}

/**
 * `log.ini` level for our LOG_LEVEL. Never below DEBUG: Haraka's PROTOCOL and
 * DATA levels print the SMTP dialogue and message bytes, which must not reach
 * the logs (credentials in AUTH, message bodies).
 */
export function harakaLogLevel(level: string): string {
  switch (level) {
    case 'trace':
    case 'debug':
      return 'debug';
    case 'warn':
      return 'warn';
    case 'error':
      return 'error';
    case 'fatal':
      return 'crit';
    case 'silent':
      return 'emerg';
    default:
      return 'info';
  }
}
