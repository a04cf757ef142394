import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { dkimSignatureValue } from '../mail/dkim-sign';
import { createSigningKeys } from '../mta/signing-keys';
import type { CaptureSigner } from '../modules/delivery/local-hand-off';
import { createSealer } from '../shared/seal';

/**
 * Signs captured test mail (issue 21) with the sending domain's DKIM key, exactly as
 * the MTA's mailroom-dkim plugin signs what leaves: the same key lookup and signer,
 * the signature as the leading header. The capture then shows the message a live
 * key would have sent. A domain whose key cannot be used (it always has one: adding
 * a domain generates it) fails the attempt, which retries, as the MTA refuses to
 * send unsigned mail.
 */
export function createCaptureSigner(deps: {
  readonly db: Kysely<Database>;
  readonly secretKey: string;
}): CaptureSigner {
  const keys = createSigningKeys({ db: deps.db, sealer: createSealer({ secretKey: deps.secretKey }) });
  return async (email, raw) => {
    const found = await keys.lookup(email.id);
    if (found.kind === 'unknown-email') throw new Error(`no message ${email.id} to sign`);
    if (found.kind === 'unavailable')
      throw new Error(`DKIM signing of ${email.id} impossible: ${found.reason}`);
    const signature = await dkimSignatureValue(raw, found.key);
    return Buffer.concat([Buffer.from(`DKIM-Signature: ${signature}\r\n`), raw]);
  };
}
