import pino from 'pino';

/**
 * Spec: these fields are `[redacted]` wherever they appear in logs. Matched ignoring
 * case, `_` and `-`, so `api_key`, `X-Internal-Token` and `dkim_private_key_encrypted` match too.
 */
export const REDACTED_FIELDS = [
  'authorization',
  'cookie',
  'password',
  'currentpassword',
  'newpassword',
  'apikey',
  'token',
  'privatekey',
  'dkimprivatekeyencrypted',
  'secret',
  'secretkey',
  'internalapitoken',
  'xinternaltoken',
  'passwordhash',
] as const;

const redacted = new Set<string>(REDACTED_FIELDS);

/** Deep copy with every sensitive key replaced, at any depth (pino's path redaction is fixed-depth). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: value.message,
      stack: value.stack,
      code: (value as { code?: unknown }).code,
    };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = redacted.has(k.toLowerCase().replace(/[_-]/g, '')) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

export type Logger = pino.Logger;

export interface LoggerOptions {
  readonly level?: string;
  readonly process?: string;
  readonly destination?: pino.DestinationStream;
}

/**
 * JSON lines on stdout. Every call site passes an object with a stable `event`
 * field; `process` names the child process (api, worker, mta, supervisor).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { process: options.process ?? 'main', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: {
        level: (label) => ({ level: label }),
        log: (obj) => redact(obj) as Record<string, unknown>,
      },
    },
    options.destination ?? pino.destination({ sync: true }),
  );
}
