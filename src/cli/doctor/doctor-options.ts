export interface DoctorOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** false: skip DNS, reverse DNS and the outbound probe (`--offline`). */
  readonly network?: boolean;
  /** Where to test outbound SMTP; default SMTP_RELAY, else the MX of `wellKnownDomain`. */
  readonly outboundProbe?: { readonly host: string; readonly port: number } | undefined;
  /** Whose MX stands in for "the internet" in the outbound probe. */
  readonly wellKnownDomain?: string;
  /** Connect and greeting timeout of the outbound probe, each. */
  readonly outboundTimeoutMs?: number;
  readonly dnsTimeoutMs?: number;
  /** Addresses to check reverse DNS for, besides MAIL_HOSTNAME's A/AAAA (e.g. a NAT's public IP). */
  readonly publicIps?: readonly string[];
  /** The host's own interface addresses (tests inject them). */
  readonly interfaceAddresses?: () => readonly string[];
  /** An http(s) URL whose `Date` header is the reference for the clock check. */
  readonly clockUrl?: string | undefined;
  readonly now?: () => number;
}
