/**
 * MTA-STS (RFC 8461) as values: the `_mta-sts` TXT record, the policy file and the MX
 * match. Pure; the discovery (DNS, HTTPS, cache) is mta-sts-discovery.ts and its use on
 * delivery is plugins/mailroom-outbound/route.ts.
 */

export type StsMode = 'enforce' | 'testing' | 'none';

export interface StsPolicy {
  /** The TXT record's `id` the policy was fetched under (RFC 8461 §3.1). */
  readonly id: string;
  readonly mode: StsMode;
  /** `mx` patterns, lower-cased without a trailing dot: `mail.example.com` or `*.example.com`. */
  readonly mx: readonly string[];
  /** Seconds the policy may be cached (§3.2: at most 31557600). */
  readonly maxAge: number;
}

/** §3.2: max_age is at most a year. */
export const MAX_AGE_LIMIT_S = 31_557_600;

/** §3.1 `sts-id`: 1 to 32 letters and digits. */
const ID = /^[A-Za-z0-9]{1,32}$/;

/**
 * The record's id from the TXT strings of `_mta-sts.<domain>`, or undefined when there is
 * no usable record: §3.1 says records not starting with `v=STSv1;` are ignored, and more
 * than one STSv1 record means no policy.
 */
export function parseStsRecord(txt: readonly (readonly string[])[]): string | undefined {
  const records = txt.map((chunks) => chunks.join('')).filter((r) => /^v=STSv1\s*(;|$)/.test(r));
  if (records.length !== 1) return undefined;
  for (const field of (records[0] ?? '').split(';')) {
    const eq = field.indexOf('=');
    if (eq < 0) continue;
    if (field.slice(0, eq).trim() === 'id') {
      const id = field.slice(eq + 1).trim();
      return ID.test(id) ? id : undefined;
    }
  }
  return undefined;
}

function hostName(value: string): string {
  return value.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The policy file (§3.2): `key: value` lines (CRLF or LF). Unknown keys are ignored; a
 * missing or wrong `version`, `mode` or `max_age`, or `enforce`/`testing` without an `mx`,
 * makes it invalid (undefined).
 */
export function parseStsPolicy(text: string, id: string): StsPolicy | undefined {
  const fields = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim();
    fields.set(key, [...(fields.get(key) ?? []), line.slice(colon + 1).trim()]);
  }
  const one = (key: string): string | undefined => {
    const values = fields.get(key);
    return values?.length === 1 ? values[0] : undefined;
  };
  if (one('version') !== 'STSv1') return undefined;
  const mode = one('mode');
  if (mode !== 'enforce' && mode !== 'testing' && mode !== 'none') return undefined;
  const maxAgeText = one('max_age') ?? '';
  if (!/^\d{1,10}$/.test(maxAgeText)) return undefined;
  const maxAge = Math.min(Number(maxAgeText), MAX_AGE_LIMIT_S);
  const mx = (fields.get('mx') ?? []).map(hostName).filter((m) => m !== '');
  if (mode !== 'none' && mx.length === 0) return undefined;
  return { id, mode, mx, maxAge };
}

/**
 * §4.1: an MX host matches a pattern exactly, or `*.example.com` matches a host with
 * exactly one more label on the left (`mx1.example.com`, not `a.b.example.com`).
 */
export function mxMatches(host: string, patterns: readonly string[]): boolean {
  const name = hostName(host);
  return patterns.some((pattern) => {
    if (!pattern.startsWith('*.')) return name === pattern;
    const dot = name.indexOf('.');
    return dot > 0 && name.slice(dot + 1) === pattern.slice(2);
  });
}
