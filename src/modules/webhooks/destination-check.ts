import type { AddressGuard } from './address-policy';
import type { HostResolver } from './host-resolver';
import { urlHost } from './webhook-url';

/** A refusal message for a webhook URL, or undefined when it may be saved. */
export type DestinationCheck = (url: URL) => Promise<string | undefined>;

/**
 * The SSRF guard at creation and update, for early feedback only: the address is
 * checked again at every delivery, since DNS can change after this. A host that
 * does not resolve yet is accepted (the receiver may not be published yet).
 */
export function createDestinationCheck(deps: {
  readonly guard: AddressGuard;
  readonly resolve: HostResolver;
}): DestinationCheck {
  return async (url) => {
    const resolution = await deps.resolve(urlHost(url));
    if (!resolution.ok) return undefined;
    for (const a of resolution.addresses) {
      const verdict = deps.guard.check(a.address);
      if (!verdict.allowed) return `resolves to a refused address: ${verdict.reason}`;
    }
    return undefined;
  };
}
