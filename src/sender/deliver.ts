/**
 * One delivery attempt of one message to the recipients of one domain (issue 31): the route's
 * hosts in order, one SMTP transaction on a pooled connection, each recipient's outcome as a
 * value in the shape of MtaOutcomePayload, so the caller records them with applyMtaOutcomeIn in
 * the transaction that completes the job. RFC 5321 §5.1: a host that cannot take the mail at
 * all (connection refused or lost, a refusing greeting, 421) passes the recipients still pending
 * to the next host; a reply about one recipient (RCPT 4xx/5xx) or about the message (after DATA)
 * is that recipient's outcome, not a reason to try elsewhere.
 */
import type { MtaOutcomePayload } from '../modules/delivery/mta-outcome';
import type { StsLookup } from '../mta/mta-sts-discovery';
import { stsRoute } from '../mta/mta-sts-route';
import type { ConnectionPool, PoolTarget } from './connection-pool';
import type { Route, RouteHost } from './route';
import type { SmtpFailure } from './smtp-link';
import { openFailure } from './smtp-link';
import { parseReply } from './smtp-reply';

export type RecipientResult = Pick<
  MtaOutcomePayload,
  'recipient' | 'outcome' | 'smtpCode' | 'enhancedStatus' | 'response' | 'host' | 'tls'
>;

export interface DeliveryEnvelope {
  /** MAIL FROM: the VERP return path `bounce+<email id>@bounce.<domain>`, given by the caller. */
  readonly from: string;
  /** RCPT TO: recipients of the route's domain. */
  readonly to: readonly string[];
}

export interface DeliverDeps {
  readonly pool: ConnectionPool;
  /** MTA_STS on: the domain's policy (StsDiscovery#lookup). Not applied to the relay. */
  readonly sts?: ((domain: string) => Promise<StsLookup>) | undefined;
  readonly log?: ((event: string, fields: Readonly<Record<string, unknown>>) => void) | undefined;
}

type Said = Omit<RecipientResult, 'recipient' | 'outcome'>;

/** What a remote reply says, with the host and TLS of the session that carried it. */
function reply(text: string, host: string, tls: string | null): Said {
  const parsed = parseReply(text);
  return {
    smtpCode: parsed.code,
    enhancedStatus: parsed.enhancedStatus,
    response: parsed.text === '' ? text.trim() : parsed.text,
    host,
    tls,
  };
}

/** Why no remote answered: no code, no host, no TLS (as src/mta/delivery-outcome.ts `undelivered`). */
function unanswered(response: string): Said {
  return { smtpCode: null, enhancedStatus: null, response, host: null, tls: null };
}

function classOf(said: Said): RecipientResult['outcome'] {
  return said.smtpCode !== null && said.smtpCode >= 500 ? 'bounced' : 'deferred';
}

function lower(address: string): string {
  return address.trim().toLowerCase();
}

/** A failure that ends the session: the pending recipients go to the next host. */
function hostLevel(failure: SmtpFailure): boolean {
  if (failure.responseCode === 421) return true;
  if (failure.code === 'EENVELOPE' || failure.code === 'EMESSAGE') return false;
  return true;
}

/** node:tls verification errors (X509 codes and ERR_TLS_CERT_ALTNAME_INVALID). */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_/;

/** What the attempt says about a host that took nothing (for the recipients' deferral). */
function openSaid(failure: SmtpFailure, host: RouteHost, enforced: boolean): Said {
  if (enforced && (failure.code === 'ETLS' || CERTIFICATE_ERROR.test(failure.originalCode ?? ''))) {
    const why =
      failure.command === 'STARTTLS' && failure.response !== null
        ? `${host.name} offers no STARTTLS (${failure.response.trim()})`
        : `certificate refused (${host.address}: ${failure.message.replace(/^Error initiating TLS - /, '')})`;
    return unanswered(`MTA-STS policy (enforce) requires valid TLS: ${why}`);
  }
  if (failure.response !== null && failure.responseCode !== null)
    return reply(failure.response, host.name, null);
  return unanswered(`${host.name} [${host.address}]: ${failure.message}`);
}

interface Attempt {
  readonly hosts: readonly { readonly host: RouteHost; readonly target: PoolTarget }[];
  readonly enforced: boolean;
  /** "Tried all MXs" for the MX path, the relay's own name otherwise. */
  readonly exhausted: string;
}

async function attempt(
  a: Attempt,
  envelope: DeliveryEnvelope,
  message: Buffer,
  deps: DeliverDeps,
): Promise<RecipientResult[]> {
  const decided = new Map<string, RecipientResult>();
  const decide = (recipient: string, outcome: RecipientResult['outcome'], said: Said) =>
    decided.set(lower(recipient), { recipient: lower(recipient), outcome, ...said });
  let pending = [...envelope.to];
  let last: Said | undefined;
  for (const { host, target } of a.hosts) {
    if (pending.length === 0) break;
    let lease;
    try {
      lease = await deps.pool.acquire(target);
    } catch (err) {
      last = openSaid(openFailure(err), host, a.enforced);
      deps.log?.('sender_host_unavailable', {
        host: host.name,
        address: host.address,
        response: last.response,
      });
      continue;
    }
    const { link } = lease;
    const result = await link.send(envelope.from, pending, message);
    if (result.ok) {
      for (const recipient of result.info.accepted)
        decide(recipient, 'delivered', reply(result.info.response, host.name, link.tls));
      for (const rejected of result.info.rejectedErrors) {
        const said = reply(rejected.response ?? rejected.message, host.name, link.tls);
        if (rejected.recipient !== undefined) decide(rejected.recipient, classOf(said), said);
      }
      pending = [];
    } else if (hostLevel(result.failure)) {
      const f = result.failure;
      last =
        f.response !== null
          ? reply(f.response, host.name, link.tls)
          : unanswered(`${host.name} [${host.address}]: ${f.message}`);
      link.broken = true;
    } else if (result.rejectedErrors.length > 0) {
      // Every recipient refused at RCPT: each one's own reply.
      for (const rejected of result.rejectedErrors) {
        const said = reply(rejected.response ?? rejected.message, host.name, link.tls);
        if (rejected.recipient !== undefined) decide(rejected.recipient, classOf(said), said);
      }
      const said = reply(result.failure.response ?? result.failure.message, host.name, link.tls);
      for (const recipient of pending)
        if (!decided.has(lower(recipient))) decide(recipient, classOf(said), said);
      pending = [];
      if (!(await link.reset())) link.broken = true;
    } else {
      // MAIL FROM refused, or the message refused after DATA: the same answer for all of them.
      const said = reply(result.failure.response ?? result.failure.message, host.name, link.tls);
      for (const recipient of pending) decide(recipient, classOf(said), said);
      pending = [];
      if (!(await link.reset())) link.broken = true;
    }
    deps.pool.release(target, link);
  }
  const rest = last ?? unanswered(a.exhausted);
  const final: Said =
    rest.smtpCode === null && !rest.response.startsWith('MTA-STS')
      ? { ...rest, response: `${a.exhausted}: ${rest.response}` }
      : rest;
  for (const recipient of pending) decide(recipient, 'deferred', final);
  return envelope.to.map((r) => decided.get(lower(r)) as RecipientResult);
}

function everyone(
  envelope: DeliveryEnvelope,
  outcome: RecipientResult['outcome'],
  said: Said,
): RecipientResult[] {
  return envelope.to.map((r) => ({ recipient: lower(r), outcome, ...said }));
}

/** Delivers `message` (signed, CRLF, not dot-stuffed) along `route`; never rejects. */
export async function deliver(
  route: Route,
  envelope: DeliveryEnvelope,
  message: Buffer,
  deps: DeliverDeps,
): Promise<RecipientResult[]> {
  switch (route.kind) {
    case 'fail':
      // A null MX or a domain that does not exist is a hard bounce of the address (issue 22 item 1,
      // as src/mta/delivery-outcome.ts isDeadDomain); a refused MX is ours not to send: failed.
      return everyone(envelope, route.enhancedStatus === '5.4.4' ? 'failed' : 'bounced', {
        ...unanswered(route.response),
        enhancedStatus: route.enhancedStatus,
      });
    case 'defer':
      return everyone(envelope, 'deferred', unanswered(route.response));
    case 'relay': {
      const { host, relay } = route;
      const tls = {
        kind: 'relay',
        secure: relay.secure === true,
        requireTls: relay.requireTls === true,
      } as const;
      const target: PoolTarget = { ...host, tls, auth: relay.auth };
      return attempt(
        { hosts: [{ host, target }], enforced: false, exhausted: `SMTP_RELAY ${host.name}` },
        envelope,
        message,
        deps,
      );
    }
    case 'mx': {
      let hosts = route.hosts;
      let enforced = false;
      if (deps.sts !== undefined) {
        const found = await deps.sts(route.domain);
        if (found.error !== undefined)
          deps.log?.('mta_sts_unavailable', { domain: route.domain, error: found.error });
        const sts = stsRoute(
          route.domain,
          found.policy,
          hosts.map((h) => ({ ...h, exchange: h.address, from_dns: h.name })),
        );
        if (sts.kind === 'defer') return everyone(envelope, 'deferred', unanswered(sts.reason));
        if (sts.kind === 'testing' && sts.violations.length > 0) {
          deps.log?.('mta_sts_testing_violation', { domain: route.domain, violations: sts.violations });
        }
        enforced = sts.kind === 'enforce';
        hosts = sts.targets;
      }
      const targets = hosts.map((host) => ({
        host,
        target: {
          ...host,
          tls: enforced
            ? ({ kind: 'verified', servername: host.name } as const)
            : ({ kind: 'opportunistic' } as const),
        },
      }));
      return attempt({ hosts: targets, enforced, exhausted: 'Tried all MXs' }, envelope, message, deps);
    }
  }
}
