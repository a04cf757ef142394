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

/** Whether a key is sensitive, remembered per key (log field names are few and fixed). */
const sensitiveKeys = new Map<string, boolean>();
function isSensitive(key: string): boolean {
  let sensitive = sensitiveKeys.get(key);
  if (sensitive === undefined) {
    sensitive = redacted.has(key.toLowerCase().replace(/[_-]/g, ''));
    if (sensitiveKeys.size < 10_000) sensitiveKeys.set(key, sensitive);
  }
  return sensitive;
}

/**
 * Copy with every sensitive key replaced, at any depth (pino's path redaction is
 * fixed-depth). A plain object with nothing to replace, at any depth, is returned
 * as it is: every log call passes through here (issue 11).
 */
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
  const proto: unknown = Object.getPrototypeOf(value);
  const plain = proto === Object.prototype || proto === null;
  let out: Record<string, unknown> | undefined = plain ? undefined : {};
  const entries = Object.entries(value);
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i] as [string, unknown];
    const r = isSensitive(k) ? '[redacted]' : redact(v, depth + 1);
    if (out === undefined && r !== v) {
      // The first change: copy what came before it.
      out = {};
      for (let j = 0; j < i; j++) {
        const [pk, pv] = entries[j] as [string, unknown];
        out[pk] = pv;
      }
    }
    if (out !== undefined) out[k] = r;
  }
  return out ?? value;
}

export type Logger = pino.Logger;

export interface LoggerOptions {
  readonly level?: string;
  readonly process?: string;
  /** NODE_NAME: which node of a cluster wrote the line (issue 23). */
  readonly node?: string;
  readonly destination?: pino.DestinationStream;
}

/**
 * JSON lines on stdout. Every call site passes an object with a stable `event`
 * field; `process` names the child process (api, worker, mta, supervisor), `node`
 * the node of a cluster it runs on (NODE_NAME).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: {
        process: options.process ?? 'main',
        ...(options.node === undefined ? {} : { node: options.node }),
        pid: process.pid,
      },
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
