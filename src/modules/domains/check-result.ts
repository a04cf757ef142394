import type { DnsLookup } from '../../shared/dns-resolver';

/** Spec, Verification result: why one check failed. */
export type CheckCode =
  | 'MISSING_RECORD'
  | 'MULTIPLE_SPF_RECORDS'
  | 'INCLUDE_MISSING'
  | 'KEY_MISMATCH'
  | 'INVALID_RECORD'
  | 'LOOKUP_FAILED';

export interface CheckPassed {
  readonly verified: true;
}

export interface CheckFailed {
  readonly verified: false;
  readonly code: CheckCode;
  readonly message: string;
  /** What is published at the name now (joined TXT strings, CNAME or MX targets). */
  readonly found: readonly string[];
  /** The value to publish (for SPF: the customer's record with our include merged in). */
  readonly expected: string;
  /** What the customer should do; collected into the result's `nextSteps`. */
  readonly nextStep: string;
}

export type CheckResult = CheckPassed | CheckFailed;

export const passed: CheckPassed = { verified: true };

export function failed(init: Omit<CheckFailed, 'verified'>): CheckFailed {
  return { verified: false, ...init };
}

/** LOOKUP_FAILED, or MISSING_RECORD for NXDOMAIN / NODATA; undefined when records were found. */
export function unanswered(
  lookup: DnsLookup<unknown>,
  name: string,
  rrtype: string,
  expected: string,
  publish: string,
): CheckFailed | undefined {
  switch (lookup.status) {
    case 'found':
      return undefined;
    case 'failed':
      return failed({
        code: 'LOOKUP_FAILED',
        message: `The DNS lookup of ${rrtype} ${name} failed (${lookup.reason}); the record may well exist. This is usually temporary.`,
        found: [],
        expected,
        nextStep: `Retry verification in a few minutes; if ${name} keeps failing (${lookup.reason}), check your DNS provider's name servers.`,
      });
    case 'nxdomain':
    case 'nodata':
      return failed({
        code: 'MISSING_RECORD',
        message:
          lookup.status === 'nxdomain'
            ? `No ${rrtype} record: ${name} does not exist in DNS.`
            : `No ${rrtype} record at ${name}.`,
        found: [],
        expected,
        nextStep: publish,
      });
  }
}

/** Host names compare case-insensitively and with or without the root dot. */
export function sameHost(a: string, b: string): boolean {
  return a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');
}
