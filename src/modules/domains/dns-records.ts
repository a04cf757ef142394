import { publicDnsNameProblem } from '../../shared/public-dns-name';
import { defaultDmarc } from './dmarc-check';
import { inboundHost, MX_PRIORITY } from './mx-check';
import { RETURN_PATH_LABEL } from './return-path-check';
import { defaultSpf } from './spf-record';

/** Spec, DNS record: what the customer publishes. */
export interface DnsRecord {
  readonly purpose: 'spf' | 'dkim' | 'dmarc' | 'return_path' | 'mx';
  readonly type: 'TXT' | 'CNAME' | 'MX';
  /** Relative to the domain; `@` is the apex. */
  readonly host: string;
  readonly name: string;
  readonly value: string;
  /** MX only. */
  readonly priority?: number;
  readonly ttl: number;
  readonly required: boolean;
  readonly description: string;
  /**
   * False when the record names one of the appliance's hosts that is no public DNS name
   * (MAIL_HOSTNAME left as the container's host name): published, it cannot work.
   */
  readonly usable: boolean;
  /** Why not, and which setting to change; only when `usable` is false. */
  readonly unusableReason?: string;
}

/** The appliance's names the records point at (config: SPF_INCLUDE_HOST, BOUNCE_HOST, MX_HOST). */
export interface ServiceHosts {
  readonly spfIncludeHost: string;
  readonly bounceHost: string;
  readonly mxHost: string;
}

export interface RecordSubject {
  readonly domain: string;
  readonly dkimSelector: string;
  readonly dkimPublicKey: string;
  readonly receiveEnabled: boolean;
  readonly inboundLabel: string;
}

const TTL = 3600;

/** The appliance host a record names, and the setting it comes from. */
const SERVICE_HOST: Partial<Record<DnsRecord['purpose'], readonly [keyof ServiceHosts, string, string]>> = {
  spf: ['spfIncludeHost', 'SPF_INCLUDE_HOST', '_spf.$MAIL_HOSTNAME'],
  return_path: ['bounceHost', 'BOUNCE_HOST', '$MAIL_HOSTNAME'],
  mx: ['mxHost', 'MX_HOST', '$MAIL_HOSTNAME'],
};

/** Whether a record can work at all: the appliance host it names must be a public DNS name. */
export function recordUsability(
  purpose: DnsRecord['purpose'],
  hosts: ServiceHosts,
): Pick<DnsRecord, 'usable' | 'unusableReason'> {
  const named = SERVICE_HOST[purpose];
  if (named === undefined) return { usable: true };
  const [field, setting, fallback] = named;
  const problem = publicDnsNameProblem(hosts[field]);
  if (problem === undefined) return { usable: true };
  return {
    usable: false,
    unusableReason:
      `It names ${hosts[field]}, which is not a public DNS name (${problem}): receivers cannot look it up, ` +
      `so this record cannot work. Set MAIL_HOSTNAME to this server's public name (or ${setting}, ` +
      `by default ${fallback}) and restart; the record then changes.`,
  };
}

/** Records in the order a customer should publish them: required first, the MX last and only when receiving. */
export function domainRecords(d: RecordSubject, hosts: ServiceHosts): DnsRecord[] {
  const records: Omit<DnsRecord, 'usable' | 'unusableReason'>[] = [
    {
      purpose: 'spf',
      type: 'TXT',
      host: '@',
      name: d.domain,
      value: defaultSpf(hosts.spfIncludeHost),
      ttl: TTL,
      required: true,
      description:
        'Authorises this service to send for the domain. If the domain already has an SPF record (v=spf1 …), do not add a second one: add include:' +
        `${hosts.spfIncludeHost} to the existing record, before its "all".`,
    },
    {
      purpose: 'dkim',
      type: 'TXT',
      host: `${d.dkimSelector}._domainkey`,
      name: `${d.dkimSelector}._domainkey.${d.domain}`,
      value: `v=DKIM1; k=rsa; p=${d.dkimPublicKey}`,
      ttl: TTL,
      required: true,
      description:
        'The public half of the key that signs your mail. Publish the value exactly; if your DNS panel limits a value to 255 characters, split it into several quoted strings.',
    },
    {
      purpose: 'dmarc',
      type: 'TXT',
      host: '_dmarc',
      name: `_dmarc.${d.domain}`,
      value: defaultDmarc(),
      ttl: TTL,
      required: false,
      description:
        'Recommended. Tells receivers how to treat mail that fails SPF and DKIM; p=none only monitors. Keep an existing DMARC record instead of adding a second.',
    },
    {
      purpose: 'return_path',
      type: 'CNAME',
      host: RETURN_PATH_LABEL,
      name: `${RETURN_PATH_LABEL}.${d.domain}`,
      value: hosts.bounceHost,
      ttl: TTL,
      required: false,
      description:
        'Recommended. The envelope sender host: bounces and complaints come back here and are tracked.',
    },
  ];
  if (d.receiveEnabled) {
    records.push({
      purpose: 'mx',
      type: 'MX',
      host: d.inboundLabel,
      name: inboundHost(d.domain, d.inboundLabel),
      value: hosts.mxHost,
      priority: MX_PRIORITY,
      ttl: TTL,
      required: false,
      description:
        d.inboundLabel === '@'
          ? 'Needed to receive mail. At the apex this replaces wherever the domain receives mail today.'
          : `Needed to receive mail at any address @${inboundHost(d.domain, d.inboundLabel)}.`,
    });
  }
  return records.map((r) => ({ ...r, ...recordUsability(r.purpose, hosts) }));
}
