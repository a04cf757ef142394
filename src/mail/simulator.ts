/**
 * Simulator recipients (issue 21 item 2): addresses at a reserved domain whose
 * outcome is chosen by their local part, for live and test keys alike. They take
 * the real paths after the hand-off — the status machine (`applyMtaOutcomeIn`),
 * the bounce and complaint intake (a DSN or ARF report VERP-addressed to the
 * message), suppression and webhooks — but no connection is opened for them and
 * they are left out of the abuse signals (docs/testing-your-integration.md).
 *
 * The domain sits under `.invalid`, which RFC 2606 §2 reserves for names that can
 * never resolve: mail to it could not leave even if the simulator were bypassed.
 */
export const SIMULATOR_DOMAIN = 'simulator.mailroom.invalid';

export const SIMULATED_OUTCOMES = [
  'delivered',
  'bounced',
  'soft-bounced',
  'deferred',
  'complained',
  'suppressed',
] as const;

export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/** `delivered+anything@` works too (one address per test case), as in Resend's test addresses. */
function localPartOf(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.slice(at + 1).toLowerCase() !== SIMULATOR_DOMAIN) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  return plus === -1 ? local : local.slice(0, plus);
}

/** True for any address at the simulator's domain (known local part or not). */
export function isSimulatorAddress(address: string): boolean {
  return localPartOf(address) !== undefined;
}

/** The outcome an address asks for; undefined for an address elsewhere or an unknown local part. */
export function simulatedOutcome(address: string): SimulatedOutcome | undefined {
  const local = localPartOf(address);
  return SIMULATED_OUTCOMES.find((o) => o === local);
}

/** `suppressed@`: refused at acceptance like an address on the account's suppression list. */
export function isSimulatedSuppressed(address: string): boolean {
  return simulatedOutcome(address) === 'suppressed';
}

/** The refusal text for an address at the simulator's domain that names no outcome. */
export function unknownSimulatorAddress(address: string): string | undefined {
  if (!isSimulatorAddress(address) || simulatedOutcome(address) !== undefined) return undefined;
  return `${address} is not a simulator address; use ${SIMULATED_OUTCOMES.map((o) => `${o}@${SIMULATOR_DOMAIN}`).join(', ')}`;
}

/** How long `deferred@` stays deferred before its delivery is reported. */
export const SIMULATED_DEFERRAL_MS = 5_000;
