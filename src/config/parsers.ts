/**
 * Parsers for configuration values. Each returns the parsed value or throws a
 * ConfigValueError whose message says what was expected; the loader collects
 * every failure so boot can list all invalid keys at once.
 */
import net from 'node:net';

export class ConfigValueError extends Error {}

export type Parser<T> = (raw: string) => T;

export const str: Parser<string> = (raw) => raw;

export function int(min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigValueError(`expected an integer, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) throw new ConfigValueError(`expected an integer from ${min} to ${max}, got ${n}`);
    return n;
  };
}

export const port: Parser<number> = int(0, 65535);

export const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigValueError(`expected true or false, got "${raw}"`);
};

export const url: Parser<string> = (raw) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigValueError(`expected an absolute URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigValueError(`expected an http(s) URL, got "${raw}"`);
  }
  // A loop, not /\/+$/ (quadratic on a long run of slashes; issue 17 finding 2 lint rule).
  let end = raw.length;
  while (end > 0 && raw.charAt(end - 1) === '/') end--;
  return raw.slice(0, end);
};

const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const hostname: Parser<string> = (raw) => {
  const v = raw.trim().replace(/\.$/, '').toLowerCase();
  if (!HOSTNAME.test(v)) throw new ConfigValueError(`expected a host name, got "${raw}"`);
  return v;
};

/** A DNS name that may hold service labels such as `_spf` (not a host name, so `_` is allowed). */
export const dnsName: Parser<string> = (raw) => {
  const v = raw.trim().replace(/\.$/, '').toLowerCase();
  if (!HOSTNAME.test(v.replace(/(^|\.)_/g, '$1')))
    throw new ConfigValueError(`expected a DNS name, got "${raw}"`);
  return v;
};

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** `host:port`, `ip:port` or `[ipv6]:port`; the port is required unless a default is given. */
export function hostPort(defaultPort?: number): Parser<HostPort> {
  return (raw) => {
    const v = raw.trim();
    const m = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(v) ?? /^([^:[\]]+)(?::(\d+))?$/.exec(v);
    const host = m?.[1];
    const p = m?.[2] ?? (defaultPort === undefined ? undefined : String(defaultPort));
    if (!host || p === undefined) throw new ConfigValueError(`expected host:port, got "${raw}"`);
    const n = Number(p);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new ConfigValueError(`invalid port in "${raw}"`);
    return { host, port: n };
  };
}

/** Like hostPort, but the host must be an IP literal (resolvers cannot be found by name). */
export function ipPort(defaultPort: number): Parser<HostPort> {
  const parse = hostPort(defaultPort);
  return (raw) => {
    const v = parse(raw);
    if (net.isIP(v.host) === 0) throw new ConfigValueError(`expected an IP address, got "${v.host}"`);
    return v;
  };
}

export function list<T>(item: Parser<T>): Parser<T[]> {
  return (raw) =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => item(s));
}

export function oneOf<const T extends string>(...values: T[]): Parser<T> {
  return (raw) => {
    const v = raw.trim().toLowerCase();
    const found = values.find((x) => x === v);
    if (found === undefined) throw new ConfigValueError(`expected one of ${values.join(', ')}, got "${raw}"`);
    return found;
  };
}

/** A secret must be long enough to be worth its name. */
export function secret(minLength: number): Parser<string> {
  return (raw) => {
    if (raw.length < minLength) throw new ConfigValueError(`must be at least ${minLength} characters`);
    return raw;
  };
}
