import type { Config } from '../../config';
import type { AddressGuard } from '../../mail/address-guard';
import { guardFromConfig } from '../../mail/address-guard';
import type { HostResolver } from './host-resolver';
import { createHostResolver } from './host-resolver';
import { urlHost } from './webhook-url';

/**
 * What the check found: a refusal (the URL must not be saved), a warning (saved, but
 * the answer says what will go wrong), or neither.
 */
export interface DestinationVerdict {
  readonly refusal?: string;
  readonly warning?: string;
}

export type DestinationCheck = (url: URL) => Promise<DestinationVerdict>;

/**
 * The SSRF guard at creation and update, for early feedback only: the address is
 * checked again at every delivery, since DNS can change after this. A host that
 * does not resolve yet is accepted (the receiver may not be published yet), with a
 * warning: the DNS answer is known now, and otherwise the first sign of a typo is
 * the endpoint disabled after its deliveries failed (issue 21 item 3).
 */
export function createDestinationCheck(deps: {
  readonly guard: AddressGuard;
  readonly resolve: HostResolver;
}): DestinationCheck {
  return async (url) => {
    const resolution = await deps.resolve(urlHost(url));
    if (!resolution.ok) {
      return {
        warning: `url: ${resolution.error}, so deliveries to it fail until it resolves; after repeated failures the endpoint is disabled`,
      };
    }
    for (const a of resolution.addresses) {
      const verdict = deps.guard.check(a.address);
      if (!verdict.allowed) return { refusal: `resolves to a refused address: ${verdict.reason}` };
    }
    return {};
  };
}

/**
 * The check both webhook surfaces (/v1 and the Resend-compatible one) run at creation and
 * update, from the configuration: one construction, so the two cannot guard differently.
 */
export function destinationCheckFromConfig(config: Config): DestinationCheck {
  return createDestinationCheck({
    guard: guardFromConfig(config),
    resolve: createHostResolver({ servers: config.dnsServers }),
  });
}
