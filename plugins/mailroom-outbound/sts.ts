// MTA-STS (RFC 8461) in mailroom-outbound's `get_mx` (route.ts): the recipient domain's
// policy (src/mta/mta-sts-discovery.ts) narrows the MX addresses Haraka may use, and under
// `enforce` the attempt requires STARTTLS with a certificate valid for the MX name
// (src/mta/outbound-tls-session.ts). Not applied to SMTP_RELAY: the operator's smarthost.
import dns from 'node:dns';
import fs from 'node:fs';
import tls from 'node:tls';
import { parseDnsServerList } from '../../src/mta/dns-servers';
import { StsDiscovery, httpsPolicyFetcher } from '../../src/mta/mta-sts-discovery';
import type { MxTarget } from '../../src/mta/mx-guard';
import { stsRoute } from '../../src/mta/mta-sts-route';
import { mtaOutboundGuard } from '../../src/mta/mta-runtime';
import {
  outboundTlsFailureOf,
  requireVerifiedTls,
  requiresVerifiedTls,
} from '../../src/mta/outbound-tls-session';
import { iniInteger, iniValue } from '../ini';
import type { HarakaHmail, HarakaPlugin } from '../types';

/** §3.3 asks for a short fetch timeout; a slow policy host must not hold the hook (30 s). */
const FETCH_TIMEOUT_MS = 10_000;

let discovery: StsDiscovery | undefined;
/** Why this message's attempt was deferred by a policy: the deferred hook reports it. */
const deferrals = new WeakMap<HarakaHmail, string>();

/** Reads mailroom.ini [outbound]; false when MTA_STS is off. */
export function setUpSts(plugin: HarakaPlugin): boolean {
  const ini = plugin.config.get('mailroom.ini');
  const extraCa = iniValue(ini, 'outbound', 'extra_ca_file');
  const ca =
    typeof extraCa === 'string' && extraCa !== ''
      ? [...tls.getCACertificates('default'), fs.readFileSync(extraCa, 'utf8')]
      : undefined;
  // Haraka's outbound TLS (an enforced MX) verifies against the process's default CAs.
  if (ca !== undefined) tls.setDefaultCACertificates(ca);
  if (iniValue(ini, 'outbound', 'mta_sts') !== 'true' && iniValue(ini, 'outbound', 'mta_sts') !== true)
    return false;
  const resolver = new dns.promises.Resolver({ timeout: 5_000, tries: 2 });
  const servers = parseDnsServerList(iniValue(ini, 'dns', 'servers'));
  if (servers.length > 0) resolver.setServers(servers);
  discovery = new StsDiscovery({
    resolveTxt: (name) => resolver.resolveTxt(name),
    fetchPolicy: httpsPolicyFetcher({
      resolveAddresses: async (name) => {
        const v4 = await resolver.resolve4(name).catch(() => [] as string[]);
        return v4.length > 0 ? v4 : resolver.resolve6(name);
      },
      guard: mtaOutboundGuard(),
      port: iniInteger(ini, 'mailroom.ini', 'outbound', 'mta_sts_port'),
      timeoutMs: FETCH_TIMEOUT_MS,
    }),
  });
  return true;
}

/**
 * The targets after the domain's policy, or the reason to defer. A failed discovery is
 * logged and delivers as without a policy (§5: no policy known means none applies).
 */
export async function applySts<T extends MxTarget>(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  domain: string,
  targets: T[],
): Promise<{ readonly targets: T[] } | { readonly defer: string }> {
  if (discovery === undefined) return { targets };
  const found = await discovery.lookup(domain);
  if (found.error !== undefined) {
    hmail.logwarn(plugin, `MTA-STS policy of ${domain} unavailable`, {
      event: 'mta_sts_unavailable',
      domain,
      error: found.error,
      cached: found.source === 'cache',
    });
  }
  const route = stsRoute(domain, found.policy, targets);
  switch (route.kind) {
    case 'open':
      return { targets: route.targets };
    case 'testing':
      if (route.violations.length > 0) {
        hmail.logwarn(plugin, `MTA-STS (testing) of ${domain} would refuse ${route.violations.join(', ')}`, {
          event: 'mta_sts_testing_violation',
          domain,
          violations: route.violations,
        });
      }
      return { targets: route.targets };
    case 'enforce':
      requireVerifiedTls(hmail);
      return { targets: route.targets };
    case 'defer':
      deferrals.set(hmail, route.reason);
      hmail.logwarn(plugin, route.reason, { event: 'mta_sts_deferred', domain });
      return { defer: route.reason };
  }
}

/** The policy's reason for a deferral it caused, else Haraka's own error. */
export function stsDeferral(hmail: HarakaHmail, error: string): string {
  const own = deferrals.get(hmail);
  if (own !== undefined) return own;
  if (!requiresVerifiedTls(hmail)) return error;
  // A refused certificate ends that MX's session and Haraka moves on ("Tried all MXs"):
  // name the certificate, which is why nothing was delivered.
  const failure = outboundTlsFailureOf(hmail);
  if (failure !== undefined)
    return `MTA-STS policy (enforce) requires valid TLS: certificate refused (${failure}); ${error}`;
  // e.g. Haraka's "No TLS available but required by configuration.": say which configuration.
  return /TLS/.test(error) ? `MTA-STS policy (enforce) requires valid TLS: ${error}` : error;
}
