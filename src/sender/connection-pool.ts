/**
 * The sender's SMTP connections, kept open between messages (issue 31): keyed by (MX address and
 * port, TLS mode, source address), at most `maxMessages` transactions per connection, closed after
 * `idleMs` unused. Open connections per destination (the MX host's registrable domain,
 * src/mta/destination-pacing.ts destinationOf) are capped by the destination's concurrency
 * (src/mta/destination-limits.ts, DATA_DIR/destination-limits.json): a burst of messages to one
 * domain queues for the connections it may have instead of opening one per message.
 */
import { createHash } from 'node:crypto';
import { destinationOf } from '../mta/destination-pacing';
import type { DestinationLimits } from '../mta/destination-limits';
import { limitFor } from '../mta/destination-limits';
import type { LinkOptions, SmtpTimeouts, TlsMode } from './smtp-link';
import { SmtpLink } from './smtp-link';

export interface PoolTarget {
  /** The MX name (the destination is its registrable domain), or the relay host. */
  readonly name: string;
  readonly address: string;
  readonly port: number;
  readonly localAddress?: string | undefined;
  readonly tls: TlsMode;
  readonly auth?: LinkOptions['auth'];
}

export interface PoolOptions {
  /** EHLO name: MAIL_HOSTNAME. */
  readonly name: string;
  readonly limits: () => DestinationLimits;
  readonly timeouts: SmtpTimeouts;
  readonly ca?: readonly string[] | undefined;
  /** Transactions per connection before it is closed (Postfix's smtp_connection_reuse_count_limit). */
  readonly maxMessages?: number;
  /** How long an unused connection stays open (Postfix's smtp_connection_cache_time_limit is 2 s). */
  readonly idleMs?: number;
}

export const DEFAULT_MAX_MESSAGES = 100;
export const DEFAULT_IDLE_MS = 5_000;

function keyOf(target: PoolTarget): string {
  const tls =
    target.tls.kind === 'verified'
      ? `verified:${target.tls.servername}`
      : target.tls.kind === 'relay'
        ? `relay:${target.tls.secure}:${target.tls.requireTls}`
        : 'opportunistic';
  // Other credentials are another session: a fingerprint, so the key holds no password.
  const auth =
    target.auth === undefined
      ? ''
      : createHash('sha256').update(`${target.auth.user}\0${target.auth.pass}`).digest('base64url');
  return `${target.address}|${target.port}|${tls}|${target.localAddress ?? ''}|${auth}`;
}

interface Idle {
  readonly link: SmtpLink;
  readonly timer: NodeJS.Timeout;
}

interface Waiter {
  readonly key: string;
  readonly grant: () => void;
}

interface Destination {
  /** Connections open or being opened, idle ones included. */
  open: number;
  readonly waiters: Waiter[];
}

/** A connection lent by `acquire`: give it back with `release`. */
export interface Lease {
  readonly link: SmtpLink;
  /** Whether `open()` ran for this lease (a new connection) or it was reused. */
  readonly reused: boolean;
}

export class ConnectionPool {
  private readonly idle = new Map<string, Idle[]>();
  private readonly destinations = new Map<string, Destination>();
  private readonly keyDestination = new Map<string, string>();
  /** The destination each counted connection belongs to; removed once it is no longer counted. */
  private readonly counted = new Map<SmtpLink, string>();
  private readonly maxMessages: number;
  private readonly idleMs: number;
  private closed = false;
  /** Connections opened so far (for tests and metrics). */
  opened = 0;

  constructor(private readonly options: PoolOptions) {
    this.maxMessages = options.maxMessages ?? DEFAULT_MAX_MESSAGES;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  private destination(name: string): Destination {
    const key = destinationOf(name);
    let entry = this.destinations.get(key);
    if (entry === undefined) {
      entry = { open: 0, waiters: [] };
      this.destinations.set(key, entry);
    }
    return entry;
  }

  private takeIdle(key: string): SmtpLink | undefined {
    const list = this.idle.get(key);
    while (list !== undefined && list.length > 0) {
      const entry = list.pop() as Idle;
      clearTimeout(entry.timer);
      if (!entry.link.broken) return entry.link;
      this.forget(entry.link);
    }
    return undefined;
  }

  /** An idle connection of the destination under another key, closed to make room. */
  private closeOneIdle(destination: string): boolean {
    for (const [key, list] of this.idle) {
      if (this.keyDestination.get(key) !== destination) continue;
      const entry = list.pop();
      if (entry === undefined) continue;
      clearTimeout(entry.timer);
      entry.link.close();
      this.forget(entry.link);
      return true;
    }
    return false;
  }

  /**
   * A connection to the target: an idle one of the same key, else a new one when the
   * destination is under its concurrency, else the first one released. Rejects when the
   * connection cannot be opened (the error's `failure` says why) or the pool is closed.
   */
  async acquire(target: PoolTarget): Promise<Lease> {
    const key = keyOf(target);
    const destinationName = destinationOf(target.name);
    this.keyDestination.set(key, destinationName);
    const destination = this.destination(target.name);
    for (;;) {
      if (this.closed) throw new Error('the connection pool is closed');
      const idle = this.takeIdle(key);
      if (idle !== undefined) return { link: idle, reused: true };
      const cap = limitFor(this.options.limits(), destinationName).concurrency;
      if (destination.open < cap || this.closeOneIdle(destinationName)) break;
      await new Promise<void>((grant) => destination.waiters.push({ key, grant }));
    }
    destination.open++;
    const link = new SmtpLink({
      address: target.address,
      port: target.port,
      localAddress: target.localAddress,
      name: this.options.name,
      tls: target.tls,
      auth: target.auth,
      timeouts: this.options.timeouts,
      ca: this.options.ca,
    });
    this.counted.set(link, destinationName);
    this.opened++;
    try {
      await link.open();
    } catch (err) {
      this.forget(link);
      throw err;
    }
    return { link, reused: false };
  }

  /** Back into the pool (or closed: broken, used up, pool closed); the next waiter gets its turn. */
  release(target: PoolTarget, link: SmtpLink): void {
    const key = keyOf(target);
    if (link.broken || this.closed || link.messages >= this.maxMessages) {
      if (!link.broken) link.close();
      this.forget(link);
      return;
    }
    const timer = setTimeout(() => {
      const list = this.idle.get(key) ?? [];
      const at = list.findIndex((entry) => entry.link === link);
      if (at >= 0) list.splice(at, 1);
      link.close();
      this.forget(link);
    }, this.idleMs);
    timer.unref();
    const list = this.idle.get(key) ?? [];
    list.push({ link, timer });
    this.idle.set(key, list);
    this.wake(destinationOf(target.name), key);
  }

  /** The connection no longer counts against its destination (closed or never opened). */
  private forget(link: SmtpLink): void {
    const destinationName = this.counted.get(link);
    if (destinationName === undefined) return;
    this.counted.delete(link);
    const destination = this.destinations.get(destinationName);
    if (destination === undefined) return;
    destination.open = Math.max(0, destination.open - 1);
    this.wake(destinationName);
    if (destination.open === 0 && destination.waiters.length === 0) this.destinations.delete(destinationName);
  }

  /** Lets one waiter retry: one of the same key when a connection went idle, else the first. */
  private wake(destinationName: string, key?: string): void {
    const destination = this.destinations.get(destinationName);
    if (destination === undefined || destination.waiters.length === 0) return;
    const at =
      key === undefined
        ? 0
        : Math.max(
            0,
            destination.waiters.findIndex((w) => w.key === key),
          );
    const [waiter] = destination.waiters.splice(at, 1);
    waiter?.grant();
  }

  /** Open connections per destination, idle ones included. */
  openCounts(): ReadonlyMap<string, number> {
    return new Map([...this.destinations].map(([name, d]) => [name, d.open]));
  }

  /** QUIT on every idle connection; connections in use close when released. */
  close(): void {
    this.closed = true;
    for (const list of this.idle.values()) {
      for (const entry of list) {
        clearTimeout(entry.timer);
        entry.link.close();
      }
    }
    this.idle.clear();
    for (const destination of this.destinations.values()) {
      for (const waiter of destination.waiters.splice(0)) waiter.grant();
    }
  }
}
