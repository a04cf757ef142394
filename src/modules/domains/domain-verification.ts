import type { DnsResolver } from '../../shared/dns-resolver';
import type { CheckCode, CheckFailed, CheckResult } from './check-result';
import { checkDkim } from './dkim-check';
import { checkDmarc } from './dmarc-check';
import type { RecordSubject, ServiceHosts } from './dns-records';
import { organizationalDomain } from './domain-name';
import { checkMx } from './mx-check';
import { checkReturnPath } from './return-path-check';
import { checkSpf } from './spf-check';

/** One check as the API shows it: the spec's fields, without our internal `nextStep`. */
export type CheckView =
  { readonly verified: true } | Pick<CheckFailed, 'verified' | 'code' | 'message' | 'found' | 'expected'>;

export interface CheckSet {
  readonly spf: CheckResult;
  readonly dkim: CheckResult;
  readonly dmarc: CheckResult;
  readonly returnPath: CheckResult;
  /** Only when receiving is enabled. */
  readonly mx?: CheckResult | undefined;
}

/** Spec, Verification result. `mx` appears when receiving is enabled (not required for sending). */
export interface VerificationResult {
  readonly verified: boolean;
  readonly domain: string;
  readonly spf: CheckView;
  readonly dkim: CheckView;
  readonly dmarc: CheckView;
  readonly returnPath: CheckView;
  readonly mx?: CheckView;
  readonly required: {
    readonly spf: true;
    readonly dkim: true;
    readonly dmarc: false;
    readonly returnPath: false;
    readonly mx?: false;
  };
  readonly nextSteps?: readonly string[];
}

/**
 * What the required checks say: `pass` (SPF and DKIM verified), `fail` (a required
 * record is definitely missing or wrong) or `unknown` (the only required failures
 * are LOOKUP_FAILED: DNS did not answer, so nothing is known about the records).
 */
export type RequiredOutcome = 'pass' | 'fail' | 'unknown';

export function requiredOutcome(checks: Pick<CheckSet, 'spf' | 'dkim'>): RequiredOutcome {
  const failures = [checks.spf, checks.dkim].filter((c): c is CheckFailed => !c.verified);
  if (failures.length === 0) return 'pass';
  return failures.every((c) => c.code === 'LOOKUP_FAILED') ? 'unknown' : 'fail';
}

/** `pass` or the failure code, per check: what logs and audit entries record (never record contents). */
export function checkCodes(checks: CheckSet): Record<string, 'pass' | CheckCode> {
  const out: Record<string, 'pass' | CheckCode> = {};
  for (const [name, c] of Object.entries(checks) as [string, CheckResult | undefined][]) {
    if (c) out[name] = c.verified ? 'pass' : c.code;
  }
  return out;
}

/** Runs every check at once; each goes through `resolver`, so DNS_SERVERS applies to all. */
export async function runChecks(
  resolver: DnsResolver,
  subject: RecordSubject,
  hosts: ServiceHosts,
): Promise<CheckSet> {
  const { domain } = subject;
  const [spf, dkim, dmarc, returnPath, mx] = await Promise.all([
    checkSpf(resolver, domain, hosts.spfIncludeHost),
    checkDkim(resolver, domain, subject.dkimSelector, subject.dkimPublicKey),
    checkDmarc(resolver, domain, organizationalDomain(domain)),
    checkReturnPath(resolver, domain, hosts.bounceHost),
    subject.receiveEnabled ? checkMx(resolver, domain, subject.inboundLabel, hosts.mxHost) : undefined,
  ]);
  return { spf, dkim, dmarc, returnPath, mx };
}

function view(c: CheckResult): CheckView {
  if (c.verified) return { verified: true };
  return { verified: false, code: c.code, message: c.message, found: c.found, expected: c.expected };
}

/** Shapes checks into the spec's result; `nextSteps` (required fixes first) only when not verified. */
export function verificationResult(domain: string, checks: CheckSet): VerificationResult {
  const verified = requiredOutcome(checks) === 'pass';
  const ordered = [checks.spf, checks.dkim, checks.dmarc, checks.returnPath, checks.mx];
  const nextSteps = ordered.flatMap((c) => (c && !c.verified ? [c.nextStep] : []));
  return {
    verified,
    domain,
    spf: view(checks.spf),
    dkim: view(checks.dkim),
    dmarc: view(checks.dmarc),
    returnPath: view(checks.returnPath),
    ...(checks.mx ? { mx: view(checks.mx) } : {}),
    required: {
      spf: true,
      dkim: true,
      dmarc: false,
      returnPath: false,
      ...(checks.mx ? { mx: false as const } : {}),
    },
    ...(verified ? {} : { nextSteps }),
  };
}
