// The signer alone: the package's index also loads BIMI/VMC validation and an HTTP client (~8 MB of heap in the mta).
import { dkimSign } from 'mailauth/lib/dkim/sign';

/** The domain's key, unsealed (src/mta/signing-keys.ts): never logged, never written to a queue file. */
export interface DkimSigningKey {
  /** d=: the sending domain (lower-case A-labels). */
  readonly domain: string;
  /** s=: the domain's selector (part 2: `mr<yyyymm><random>`). */
  readonly selector: string;
  /** PKCS#8 PEM. */
  readonly privateKeyPem: string;
}

/**
 * Header fields signed when present (RFC 6376 §5.4.1 lists what SHOULD be): the
 * ones a reader sees or a MUA acts on, the MIME structure (so a body part cannot
 * be swapped for one with another meaning), threading, and the one-click
 * unsubscribe pair (RFC 8058 §4 requires both to be signed). Custom `X-` headers,
 * Received and Return-Path are not: relays add or rewrite them.
 *
 * Not over-signed: mailauth's dkimSign puts a name in h= once per field present
 * and has no option to list a field once more than it occurs (RFC 6376 §8.15),
 * and h= is covered by the signature itself, so it cannot be edited afterwards.
 * A second From prepended in transit therefore leaves this signature valid;
 * receivers applying RFC 5322's "exactly one From" (and DMARC, RFC 7489 §6.6.1)
 * reject such a message.
 */
export const SIGNED_HEADERS: readonly string[] = [
  'From',
  'Sender',
  'Reply-To',
  'To',
  'Cc',
  'Subject',
  'Date',
  'Message-ID',
  'In-Reply-To',
  'References',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Content-ID',
  'Content-Description',
  'Content-Disposition',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'Feedback-ID',
];

const HEADER_PREFIX = /^DKIM-Signature:[ \t]*/i;

/**
 * Signs `message` (the whole message as it will be sent, CRLF line ends, not
 * dot-stuffed) with relaxed/relaxed rsa-sha256 and returns the DKIM-Signature
 * field VALUE, folded with CRLF + whitespace, for Haraka's add_leading_header().
 * Throws when mailauth created no signature (no From header, unusable key …).
 */
export async function dkimSignatureValue(message: Buffer, key: DkimSigningKey): Promise<string> {
  const signature = {
    signingDomain: key.domain,
    selector: key.selector,
    privateKey: key.privateKeyPem,
    algorithm: 'rsa-sha256',
    canonicalization: 'relaxed/relaxed',
    headerList: [...SIGNED_HEADERS],
  };
  // mailauth's typings want the first signature's fields at the top level as well;
  // the signer reads them from signatureData.
  const result = await dkimSign(message, { ...signature, strict: true, signatureData: [{ ...signature }] });
  const [first] = result.errors;
  if (first !== undefined) {
    throw new Error(`DKIM signing failed: ${first.err.code ?? 'error'}: ${first.err.message}`);
  }
  const header = result.signatures.replace(/\r\n$/, '');
  if (!HEADER_PREFIX.test(header) || header.includes('\r\nDKIM-Signature:')) {
    throw new Error('DKIM signing produced no single DKIM-Signature header');
  }
  return header.replace(HEADER_PREFIX, '');
}
