/**
 * The worker's own outbound sender (issue 31), assembled from the configuration: one message,
 * already built and DKIM-signed, to all of its live recipients. Recipients are grouped by domain;
 * each domain gets its route (its MX hosts or SMTP_RELAY, resolveRoute) and one SMTP transaction
 * on a pooled connection (deliver), the domains in parallel. The answer is each recipient's
 * outcome as a value, in the shape the Haraka hooks report (MtaOutcomePayload), so the caller
 * records it with the same code, in the transaction that completes the job. MX deliveries are
 * paced per destination (pacing.ts): a held domain's recipients come back `held`, with no
 * connection made; SMTP_RELAY is the operator's smarthost and is not paced.
 */
import fs from 'node:fs';
import tls from 'node:tls';
import type { AppConfig } from '../config';
import { outboundGuardFromConfig } from '../mail/address-guard';
import { DEFAULT_LIMITS, LIMITS_FILE, loadLimits } from '../mta/destination-limits';
import type { DestinationLimits } from '../mta/destination-limits';
import { destinationOf } from '../mta/destination-pacing';
import { StsDiscovery, httpsPolicyFetcher } from '../mta/mta-sts-discovery';
import { createDnsResolver } from '../shared/dns-resolver';
import { ConnectionPool } from './connection-pool';
import type { RecipientResult } from './deliver';
import { deliver } from './deliver';
import type { RouteDeps } from './route';
import { resolveRoute } from './route';
import type { Hold } from './pacing';
import { SenderPacing } from './pacing';
import { RFC5321_TIMEOUTS } from './smtp-link';

export interface OutboundMessage {
  /** MAIL FROM: the VERP return path. */
  readonly from: string;
  /** RCPT TO, any domains. */
  readonly to: readonly string[];
  /** The signed message: CRLF line ends, not dot-stuffed. */
  readonly message: Buffer;
}

/** A recipient's outcome, with what pacing decided about it. */
export type SentResult = RecipientResult & {
  /** Held by its destination's pacing: no connection, no attempt; try again at `held.retryAt`. */
  readonly held?: Pick<Hold, 'destination' | 'retryAt'> | undefined;
  /** Deferred while its destination is backed off: not worth trying before this (epoch ms). */
  readonly retryNotBefore?: number | undefined;
};

export interface OutboundSender {
  /** One outcome per recipient of `to`, in order; never rejects. */
  send(message: OutboundMessage): Promise<SentResult[]>;
  /** Closes the pooled connections (the worker's stop). */
  close(): void;
}

export type OutboundConfig = Pick<
  AppConfig,
  | 'mailHostname'
  | 'dnsServers'
  | 'smtpRelay'
  | 'mtaSts'
  | 'mtaStsTestPort'
  | 'extraCaFile'
  | 'outboundAllowPrivate'
  | 'outboundAllowedCidrs'
  | 'outboundIpv6'
  | 'outboundSourceAddress'
  | 'outboundSourceAddressV6'
  | 'outboundMxPort'
  | 'dataDir'
> &
  Partial<Pick<AppConfig, 'mtaBackoffBaseS' | 'mtaBackoffMaxS'>>;

/** The domain part of an address, lower-cased (the route's key). */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** A recipient held without a connection: RFC 3463 X.4.5, mail system congestion, as the MTA reports it. */
function heldResult(recipient: string, hold: Hold): SentResult {
  return {
    recipient: recipient.trim().toLowerCase(),
    outcome: 'deferred',
    smtpCode: null,
    enhancedStatus: '4.4.5',
    response: hold.text,
    host: null,
    tls: null,
    held: { destination: hold.destination, retryAt: hold.retryAt },
  };
}

/** How often the destination limits file is read again (an operator's edit applies within it). */
const LIMITS_REREAD_MS = 10_000;

/** The sender's own log lines (`mta_sts_testing_violation`, `sender_host_unavailable`, …). */
export type SenderLog = (event: string, fields: Readonly<Record<string, unknown>>) => void;

export function createOutboundSender(config: OutboundConfig, log?: SenderLog): OutboundSender {
  const resolver = createDnsResolver({ servers: config.dnsServers });
  const guard = outboundGuardFromConfig(config);
  const ca =
    config.extraCaFile === undefined
      ? undefined
      : [...tls.rootCertificates, fs.readFileSync(config.extraCaFile, 'utf8')];
  let limits: { readonly value: DestinationLimits; readonly at: number } | undefined;
  let limitsError: string | undefined;
  const currentLimits = (): DestinationLimits => {
    if (limits === undefined || Date.now() - limits.at > LIMITS_REREAD_MS) {
      let value: DestinationLimits;
      try {
        value = loadLimits(config.dataDir);
        limitsError = undefined;
      } catch (err) {
        // A damaged file keeps the limits last read (the built-in table at first), logged once.
        value = limits?.value ?? DEFAULT_LIMITS;
        const error = err instanceof Error ? err.message : String(err);
        if (error !== limitsError) log?.('sender_destination_limits_invalid', { file: LIMITS_FILE, error });
        limitsError = error;
      }
      limits = { value, at: Date.now() };
    }
    return limits.value;
  };
  const baseS = config.mtaBackoffBaseS;
  const pacing = new SenderPacing({
    limits: currentLimits,
    backoff:
      baseS === undefined
        ? undefined
        : { baseMs: baseS * 1000, capMs: Math.max(baseS, config.mtaBackoffMaxS ?? baseS) * 1000 },
    dataDir: config.dataDir,
    log,
    gauges: true,
  });
  const pool = new ConnectionPool({
    name: config.mailHostname,
    limits: currentLimits,
    timeouts: RFC5321_TIMEOUTS,
    ca,
  });
  const routeDeps: RouteDeps = {
    dns: resolver,
    guard,
    path: {
      ipv6: config.outboundIpv6,
      port: config.outboundMxPort,
      sourceV4: config.outboundSourceAddress,
      sourceV6: config.outboundSourceAddressV6,
    },
    relay:
      config.smtpRelay === undefined
        ? undefined
        : { host: config.smtpRelay.host, port: config.smtpRelay.port },
  };
  const sts = config.mtaSts
    ? new StsDiscovery({
        resolveTxt: async (name) => {
          const found = await resolver.txt(name);
          if (found.status === 'found') return found.records.map((r) => [r]);
          throw Object.assign(new Error(found.status), {
            code: found.status === 'failed' ? found.code : 'ENODATA',
          });
        },
        fetchPolicy: httpsPolicyFetcher({
          resolveAddresses: async (name) => {
            const v4 = await resolver.a(name);
            if (v4.status === 'found' && v4.records.length > 0) return [...v4.records];
            const v6 = await resolver.aaaa(name);
            return v6.status === 'found' ? [...v6.records] : [];
          },
          guard,
          port: config.mtaStsTestPort,
          timeoutMs: 10_000,
          ca,
        }),
      })
    : undefined;
  const deliverDeps = {
    pool,
    log,
    sts: sts === undefined ? undefined : (domain: string) => sts.lookup(domain),
  };

  return {
    async send(message) {
      const byDomain = new Map<string, string[]>();
      for (const to of message.to) {
        const domain = domainOf(to);
        const list = byDomain.get(domain);
        if (list) list.push(to);
        else byDomain.set(domain, [to]);
      }
      // A message has at most the spec's 50 recipients, so at most 50 domains at once.
      const results = await Promise.all(
        [...byDomain].map(async ([domain, to]): Promise<SentResult[]> => {
          const route = await resolveRoute(domain, routeDeps);
          const envelope = { from: message.from, to };
          // Pacing is for MX delivery: the relay, a null MX or a DNS failure are not a destination's.
          if (route.kind !== 'mx') return deliver(route, envelope, message.message, deliverDeps);
          const destination = destinationOf(route.hosts[0]?.name ?? domain);
          const hold = pacing.hold(destination);
          if (hold !== undefined) return to.map((recipient) => heldResult(recipient, hold));
          let delivered: SentResult[];
          try {
            delivered = await deliver(route, envelope, message.message, deliverDeps);
          } catch (err) {
            pacing.finished(destination);
            throw err;
          }
          const retryNotBefore = pacing.delivered(destination, {
            delivered: delivered.some((r) => r.outcome === 'delivered'),
            deferrals: delivered
              .filter((r) => r.outcome === 'deferred')
              .map((r) => ({ smtpCode: r.smtpCode, enhancedStatus: r.enhancedStatus, text: r.response })),
          });
          if (retryNotBefore === undefined) return delivered;
          return delivered.map((r) => (r.outcome === 'deferred' ? { ...r, retryNotBefore } : r));
        }),
      );
      const byAddress = new Map(results.flat().map((r) => [r.recipient, r]));
      return message.to.map((to) => byAddress.get(to.trim().toLowerCase()) as SentResult);
    },
    close() {
      pool.close();
      pacing.stop();
    },
  };
}
