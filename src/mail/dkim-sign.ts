import crypto from 'node:crypto';
import type { KeyObject } from 'node:crypto';
// The signer alone: the package's index also loads BIMI/VMC validation and an HTTP client,
// heap the mta would carry for nothing (bench/RESULTS.md, memory).
import { DkimSigner } from 'mailauth/lib/dkim/dkim-signer';
import { generateCanonicalizedHeader } from 'mailauth/lib/dkim/header';
import { formatSignatureHeaderLine, getSigningHeaderLines, writeToStream } from 'mailauth/lib/tools';

/** The domain's key, unsealed (src/mta/signing-keys.ts): never logged, never written to a queue file. */
export interface DkimSigningKey {
  /** d=: the sending domain (lower-case A-labels). */
  readonly domain: string;
  /** s=: the domain's selector (part 2: `mr<yyyymm><random>`). */
  readonly selector: string;
  /** PKCS#8 PEM. */
  readonly privateKeyPem: string;
  /**
   * The same key parsed once (signing-keys.ts caches it with the unsealed PEM and
   * drops both when the domain's key changes). Absent: parsed from the PEM here.
   */
  readonly privateKey?: KeyObject | undefined;
}

/** The SIGNED_HEADERS RFC 5322 §3.6 limits to one occurrence: over-signed. */
export const OVERSIGNED_HEADERS: readonly string[] = [
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
];

/**
 * Header fields signed when present (RFC 6376 §5.4.1 lists what SHOULD be): the
 * ones a reader sees or a MUA acts on, the MIME structure (so a body part cannot
 * be swapped for one with another meaning), threading, and the one-click
 * unsubscribe pair (RFC 8058 §4 requires both to be signed). Custom `X-` headers,
 * Received and Return-Path are not: relays add or rewrite them.
 *
 * Over-signed (RFC 6376 §8.15): each field RFC 5322 §3.6 allows at most once is
 * listed in h= once more than it occurs. A verifier then covers "no further
 * instance" of it, so a From (or Subject, Reply-To …) added in transit above or
 * below ours breaks the signature instead of riding on it (issue 17, finding 4).
 */
export const SIGNED_HEADERS: readonly string[] = [
  ...OVERSIGNED_HEADERS,
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

/**
 * mailauth's signer lists a name in h= once per field present and has no option
 * to add more: the extra names are appended here. A name in h= with no field left
 * to match contributes nothing to the hash (RFC 6376 §5.4.2), so the signed data
 * is unchanged; h= itself is covered by the signature.
 */
function overSigned(keys: string): string {
  const extra = OVERSIGNED_HEADERS.join(': ');
  return keys === '' ? extra : `${keys}: ${extra}`;
}

const HEADER_PREFIX = /^DKIM-Signature:[ \t]*/i;

/**
 * The mailauth release KeyObjectSigner was written against and checked with. It reaches
 * into internals no semver promise covers (declared in mailauth-signer.d.ts), so
 * test/unit/mta/mailauth-version.test.ts fails when the installed version differs and
 * says what to re-check before this is raised (issue 18 item 8).
 */
export const MAILAUTH_VERSION_CHECKED = '7.1.0';

/**
 * mailauth's signer with the key given as a parsed KeyObject. mailauth 7 takes only
 * a PEM and parses it for every message (crypto.createPrivateKey, and the RSA
 * precomputations of a fresh key on its first signature), a sizeable share of the
 * signing's CPU in the mta (bench/RESULTS.md, end-to-end). Everything but the key's handling
 * is mailauth's own: header selection, relaxed canonicalization, body hash, tag
 * checks of the strict mode and the formatting of the field. This override of
 * DkimSigner.finalize() is its DKIM path for one rsa-sha256 signature (no ARC, no
 * i=, no l=); the unit tests verify the result with mailauth's verifier.
 */
class KeyObjectSigner extends DkimSigner {
  constructor(
    options: Record<string, unknown>,
    private readonly key: KeyObject,
  ) {
    super(options);
  }

  override finalize(): Promise<void> {
    const signatureData = this.signatureData[0];
    if (signatureData === undefined || this.headers === undefined) return Promise.resolve();
    try {
      const present = getSigningHeaderLines(this.headers.parsed, this.getFieldNames(signatureData));
      const lines = { ...present, keys: overSigned(present.keys) };
      if (!lines.headers.some((header) => header.key === 'from')) {
        throw Object.assign(new Error('Can not sign a message that has no From header'), { code: 'ENOFROM' });
      }
      if (this.key.asymmetricKeyType !== 'rsa') {
        throw Object.assign(new Error(`Invalid key type: "${this.key.asymmetricKeyType}"`), {
          code: 'EINVALIDTYPE',
        });
      }
      this.validateSigningIdentifiers(signatureData);
      const { timestamp, expiration } = this.getTimestamps();
      const bodyHash =
        this.bodyHashes.get(`relaxed:sha256:${signatureData.maxBodyLength ?? ''}`)?.hash ?? null;
      const { canonicalizedHeader, dkimHeaderOpts } = generateCanonicalizedHeader('DKIM', lines, {
        ...signatureData,
        instance: false,
        identity: false,
        algorithm: 'rsa-sha256',
        canonicalization: 'relaxed/relaxed',
        signTime: this.signTime,
        expires: this.expires,
        timestamp,
        expiration,
        bodyHash,
      });
      dkimHeaderOpts.b = crypto.sign('rsa-sha256', canonicalizedHeader, this.key).toString('base64');
      this.signatureHeaders.push(formatSignatureHeaderLine('DKIM', dkimHeaderOpts, true));
    } catch (err) {
      this.errors.push({ err: err as Error });
    }
    return Promise.resolve();
  }
}

/**
 * Signs `message` (the whole message as it will be sent, CRLF line ends, not
 * dot-stuffed) with relaxed/relaxed rsa-sha256 and returns the DKIM-Signature
 * field VALUE, folded with CRLF + whitespace, for Haraka's add_leading_header().
 * Throws when no signature was created (no From header, unusable key …).
 */
export async function dkimSignatureValue(message: Buffer, key: DkimSigningKey): Promise<string> {
  let privateKey: KeyObject;
  try {
    privateKey = key.privateKey ?? crypto.createPrivateKey(key.privateKeyPem);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new Error(`DKIM signing failed: ${typeof code === 'string' ? code : 'error'}: unusable key`, {
      cause: err,
    });
  }
  const signature = {
    signingDomain: key.domain,
    selector: key.selector,
    // Only marks the entry as one to sign (mailauth skips entries without a key); never parsed.
    privateKey: 'parsed',
    algorithm: 'rsa-sha256',
    canonicalization: 'relaxed/relaxed',
    headerList: [...SIGNED_HEADERS],
  };
  const signer = new KeyObjectSigner(
    { ...signature, strict: true, signatureData: [{ ...signature }] },
    privateKey,
  );
  await writeToStream(signer, message);
  const [first] = signer.errors;
  if (first !== undefined) {
    throw new Error(`DKIM signing failed: ${first.err.code ?? 'error'}: ${first.err.message}`);
  }
  const header = signer.signatureHeaders.join('\r\n');
  if (!HEADER_PREFIX.test(header) || header.includes('\r\nDKIM-Signature:')) {
    throw new Error('DKIM signing produced no single DKIM-Signature header');
  }
  return header.replace(HEADER_PREFIX, '');
}
