import type { RecipientType } from '../../db/schema';
import { canonicalAddress, parseMailbox } from '../../mail/address';
import { invalidRecipient, tooManyRecipients } from '../emails';
import { unknownSimulatorAddress } from '../../mail/simulator';

/** The recipient checks of a send that need no SQL (commit-message.ts raises their refusal in order). */

/** A recipient as given: `field` (`to[0]`) names it in refusals when the caller has one. */
export interface GivenRecipient {
  readonly value: string;
  readonly type: RecipientType;
  readonly field?: string;
}

export interface ScreenedRecipient {
  readonly address: string;
  readonly name: string | null;
  readonly type: RecipientType;
}

/**
 * Refuses an empty list, more than `max`, and an unusable address; keeps the
 * first occurrence of an address (compared canonically). `countText` words the
 * over-the-cap refusal the way each interface always has.
 */
export function screenRecipients(
  given: readonly GivenRecipient[],
  max: number,
  countText: (count: number) => string,
): ScreenedRecipient[] {
  if (given.length === 0) throw invalidRecipient('At least one recipient is required', { field: 'to' });
  if (given.length > max)
    throw tooManyRecipients(countText(given.length), { limit: max, count: given.length });
  const seen = new Set<string>();
  const out: ScreenedRecipient[] = [];
  for (const g of given) {
    const mailbox = parseMailbox(g.value);
    if (!mailbox) {
      throw g.field === undefined
        ? invalidRecipient(`Not a valid address: ${g.value}`, { value: g.value })
        : invalidRecipient(`${g.field} is not a valid address: ${g.value}`, {
            field: g.field,
            value: g.value,
          });
    }
    const address = canonicalAddress(mailbox.address);
    const unknown = unknownSimulatorAddress(address);
    if (unknown !== undefined) {
      throw invalidRecipient(
        unknown,
        g.field === undefined ? { value: g.value } : { field: g.field, value: g.value },
      );
    }
    if (seen.has(address)) continue;
    seen.add(address);
    out.push({ address, name: mailbox.name, type: g.type });
  }
  return out;
}

/** What the caller's screening (no SQL) concluded. */
export type Screening =
  | { readonly ok: true; readonly recipients: readonly ScreenedRecipient[] }
  | { readonly ok: false; readonly refusal: unknown };

/** Runs the caller's screening, keeping its refusal for commitMessage to raise in order. */
export function screen(check: () => readonly ScreenedRecipient[]): Screening {
  try {
    return { ok: true, recipients: check() };
  } catch (refusal) {
    return { ok: false, refusal };
  }
}
