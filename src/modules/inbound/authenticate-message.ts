import type * as Mailauth from 'mailauth';
import type { DNSResolver } from 'mailauth';

/**
 * mailauth (with its BIMI, VMC and HTTP-client dependencies, a sizeable share of the
 * worker's heap: bench/RESULTS.md, memory) is loaded with the first received message,
 * so a worker of an appliance that receives no mail never holds it
 * (docs/internals/architecture.md: Memory).
 */
let mailauth: Promise<typeof Mailauth> | undefined;

/** What is recorded of SPF, DKIM and DMARC; null = the check did not run (spec: Inbound message). */
export interface AuthResults {
  readonly spfResult: string | null;
  readonly dkimResult: string | null;
  readonly dmarcResult: string | null;
  /** True only when all three pass. */
  readonly authenticated: boolean;
}

export interface AuthInput {
  readonly raw: Buffer;
  /** The connecting client's address. */
  readonly ip: string | null;
  readonly helo: string | null;
  /** MAIL FROM; '' for the null sender (SPF then checks the HELO identity, RFC 7208 §2.4). */
  readonly mailFrom: string;
  /** Our name, the authserv-id. */
  readonly mta: string;
  readonly resolver: DNSResolver;
}

interface StatusRow {
  readonly status?: { readonly result?: unknown };
}

function resultOf(row: StatusRow | false | null | undefined): string | null {
  if (!row) return null;
  const r = row.status?.result;
  return typeof r === 'string' ? r : null;
}

/**
 * DKIM over every signature: `pass` when one passes (RFC 6376 §6.1: a verifier
 * may use any valid signature), else the first signature's result, `none` when
 * the message is unsigned.
 */
function dkimSummary(results: readonly StatusRow[] | undefined): string | null {
  if (results === undefined) return null;
  const all = results.map(resultOf).filter((r): r is string => r !== null);
  if (all.includes('pass')) return 'pass';
  return all[0] ?? 'none';
}

/**
 * SPF (connecting IP, HELO, MAIL FROM), DKIM and DMARC through mailauth, with
 * DNS_SERVERS as the resolver. Results are recorded, never enforced (spec:
 * mail failing them is still stored and delivered to the account). SPF does
 * not run without a client IP; DMARC does not run without a single From domain.
 */
export async function authenticateMessage(input: AuthInput): Promise<AuthResults> {
  const { authenticate } = await (mailauth ??= import('mailauth'));
  const result = await authenticate(input.raw, {
    ip: input.ip ?? undefined,
    helo: input.helo ?? undefined,
    sender: input.mailFrom,
    mta: input.mta,
    resolver: input.resolver,
    disableArc: true,
    disableBimi: true,
  });
  const spfResult = input.ip === null ? null : resultOf(result.spf);
  const dkimResult = dkimSummary((result.dkim as { results?: StatusRow[] } | undefined)?.results);
  const dmarcResult = resultOf(result.dmarc);
  return {
    spfResult,
    dkimResult,
    dmarcResult,
    authenticated: spfResult === 'pass' && dkimResult === 'pass' && dmarcResult === 'pass',
  };
}
