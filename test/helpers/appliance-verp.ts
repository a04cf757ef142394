import fs from 'node:fs';
import path from 'node:path';
import { taggedVerpAddress, verpKey } from '../../src/mail/verp-address';
import type { Appliance } from './appliance';

/** The appliance's master secret: SECRET_KEY when the test set it, else the one it generated in DATA_DIR. */
export function applianceSecretKey(app: Pick<Appliance, 'dataDir' | 'env'>): string {
  return app.env.SECRET_KEY ?? fs.readFileSync(path.join(app.dataDir, 'secret.key'), 'utf8').trim();
}

/** The tagged VERP sender earlier versions of the appliance wrote for this message (mail in flight). */
export function applianceTaggedVerp(
  app: Pick<Appliance, 'dataDir' | 'env'>,
  emailId: string,
  domain: string,
): string {
  return taggedVerpAddress(emailId, domain, verpKey(applianceSecretKey(app)));
}
