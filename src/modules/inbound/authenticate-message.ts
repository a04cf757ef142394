import type * as Mailauth from 'mailauth';
import type { DNSResolver } from 'mailauth';
import {
  MAX_HEADER_FIELDS,
  MAX_VERIFIED_DKIM_SIGNATURES,
  scanHeaderSection,
  withoutExtraSignatures,
} from './header-section';

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
  /** DKIM-Signature fields over {@link MAX_VERIFIED_DKIM_SIGNATURES}, not verified. */
  readonly dkimNotChecked: number;
  /** The budget ran out: what had not finished is `temperror`. */
  readonly overBudget: boolean;
}

/**
 * Wall-clock budget of one message's authentication (issue 28, item 4): a sender whose
 * DNS never answers must not hold a worker slot for the resolver's full timeouts per
 * lookup. What has not finished by then is `temperror`; the message is stored anyway.
 */
export const INBOUND_AUTH_BUDGET_MS = 10_000;
/** After the budget, lookups fail at once and mailauth ends on its own; this long at most. */
const BUDGET_GRACE_MS = 1_000;

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
  /** Default {@link INBOUND_AUTH_BUDGET_MS}. */
  readonly budgetMs?: number | undefined;
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
 * DKIM over the signatures verified: `pass` when one passes (RFC 6376 §6.1: a verifier
 * may use any valid signature), else `policy` when some were not checked (our limit,
 * RFC 8601 §2.7.1: "some aspect of the signature or signatures was not acceptable"),
 * else the first signature's result, `none` when the message is unsigned.
 */
function dkimSummary(results: readonly StatusRow[] | undefined, notChecked: number): string | null {
  if (results === undefined) return null;
  const all = results.map(resultOf).filter((r): r is string => r !== null);
  if (all.includes('pass')) return 'pass';
  if (notChecked > 0) return 'policy';
  return all[0] ?? 'none';
}

function budgetError(name: string): Error {
  // ETIMEOUT: what mailauth reports as temperror (DKIM "DNS failure", SPF, DMARC).
  return Object.assign(new Error(`authentication time budget spent before ${name} answered`), {
    code: 'ETIMEOUT',
    hostname: name,
  });
}

/** `resolver` until `signal` aborts; then every pending and later lookup fails at once. */
function resolverUntil(resolver: DNSResolver, signal: AbortSignal): DNSResolver {
  const bounded = async (name: string, rrtype: string): Promise<unknown> => {
    if (signal.aborted) throw budgetError(name);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(budgetError(name));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([resolver(name, rrtype), aborted]);
    } finally {
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    }
  };
  return bounded as DNSResolver;
}

function unauthenticated(
  spfResult: string | null,
  dkimResult: string | null,
  dmarcResult: string | null,
): Pick<AuthResults, 'spfResult' | 'dkimResult' | 'dmarcResult' | 'authenticated'> {
  return { spfResult, dkimResult, dmarcResult, authenticated: false };
}

/**
 * SPF (connecting IP, HELO, MAIL FROM), DKIM and DMARC through mailauth, with
 * DNS_SERVERS as the resolver. Results are recorded, never enforced (spec: mail
 * failing them is still stored and delivered to the account). SPF does not run
 * without a client IP; DMARC does not run without a single From domain. ARC is not
 * evaluated. Bounded: at most {@link MAX_VERIFIED_DKIM_SIGNATURES} signatures are
 * verified (the verifier gets a copy without the others; the stored bytes are
 * untouched), and everything within `budgetMs`.
 */
export async function authenticateMessage(input: AuthInput): Promise<AuthResults> {
  const section = scanHeaderSection(input.raw, MAX_HEADER_FIELDS);
  if (section.exceeded) {
    // Only mail accepted before the MX refused such header sections: nothing is run.
    return { ...unauthenticated(null, null, null), dkimNotChecked: 0, overBudget: false };
  }
  const { message, left } = withoutExtraSignatures(input.raw, section, MAX_VERIFIED_DKIM_SIGNATURES);
  const { authenticate } = await (mailauth ??= import('mailauth'));
  const budgetMs = input.budgetMs ?? INBOUND_AUTH_BUDGET_MS;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), budgetMs);
  const running = authenticate(message, {
    ip: input.ip ?? undefined,
    helo: input.helo ?? undefined,
    sender: input.mailFrom,
    mta: input.mta,
    resolver: resolverUntil(input.resolver, budget.signal),
    disableArc: true,
    disableBimi: true,
  });
  let backstop: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    backstop = setTimeout(() => resolve(undefined), budgetMs + BUDGET_GRACE_MS);
  });
  try {
    // Lookups fail once the budget is spent, so mailauth ends soon after; the backstop
    // covers whatever it might still wait on (its late result is dropped).
    running.catch(() => undefined);
    const result = await Promise.race([running, late]);
    const spfRan = input.ip !== null;
    if (result === undefined) {
      return {
        ...unauthenticated(spfRan ? 'temperror' : null, 'temperror', 'temperror'),
        dkimNotChecked: left,
        overBudget: true,
      };
    }
    const spfResult = spfRan ? resultOf(result.spf) : null;
    const dkimResult = dkimSummary((result.dkim as { results?: StatusRow[] } | undefined)?.results, left);
    const dmarcResult = resultOf(result.dmarc);
    return {
      spfResult,
      dkimResult,
      dmarcResult,
      authenticated: spfResult === 'pass' && dkimResult === 'pass' && dmarcResult === 'pass',
      dkimNotChecked: left,
      overBudget: budget.signal.aborted,
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(backstop);
  }
}
