/**
 * Bounds on a received message's header section (RFC 5322 §2.2). mailauth verifies
 * every DKIM-Signature in turn, each with a key lookup, so a message with thousands of
 * them costs thousands of lookups (issue 28, item 4). The MX refuses a header section
 * over {@link MAX_HEADER_FIELDS} fields or {@link MAX_DKIM_SIGNATURE_FIELDS} signatures
 * at end of data; the worker verifies at most {@link MAX_VERIFIED_DKIM_SIGNATURES}.
 */
export const MAX_HEADER_FIELDS = 1_000;
export const MAX_DKIM_SIGNATURE_FIELDS = 50;
/** RFC 6376 §6.1: a verifier may limit the number of signatures it tries. */
export const MAX_VERIFIED_DKIM_SIGNATURES = 5;

export interface HeaderField {
  /** Lower-cased, at most {@link NAME_BYTES} bytes of it. */
  readonly name: string;
  /** Offset of the field's first byte in the scanned bytes. */
  readonly start: number;
}

export interface HeaderSection {
  /** The fields in order, at most `maxFields` of them. */
  readonly fields: readonly HeaderField[];
  /** More than `maxFields` fields: scanning stopped there. */
  readonly exceeded: boolean;
  /** Offset of the empty line that ends the section (where the last field ends); the end of the data when there is none. */
  readonly end: number;
}

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;
const COLON = 0x3a;
/** Enough for every name compared here; a longer name is kept cut short. */
const NAME_BYTES = 64;

/**
 * Streaming: push the message in chunks of any size, then `end()`. Work is bounded by
 * the field count: at most `maxFields` names of at most {@link NAME_BYTES} bytes are
 * read byte by byte, the rest of each line is skipped with `indexOf`, and nothing is
 * looked at after the section ends or once the count is over `maxFields`.
 */
export class HeaderSectionScanner {
  readonly #maxFields: number;
  readonly #fields: HeaderField[] = [];
  /** Stream offset of the next chunk's first byte. */
  #offset = 0;
  #state: 'line-start' | 'line-start-cr' | 'name' | 'line' = 'line-start';
  #name: number[] = [];
  #end: number | undefined;
  #exceeded = false;

  constructor(maxFields: number = MAX_HEADER_FIELDS) {
    this.#maxFields = maxFields;
  }

  get done(): boolean {
    return this.#end !== undefined || this.#exceeded;
  }

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && !this.done) {
      const b = chunk[i] ?? 0;
      switch (this.#state) {
        case 'line-start-cr':
          if (b === LF) {
            this.#end = this.#offset + i - 1;
            break;
          }
          // A CR that does not end an empty line: a line of its own (the MX refuses bare CRs anyway).
          this.#startField(this.#offset + i - 1, [CR]);
          break;
        case 'line-start':
          if (b === LF) this.#end = this.#offset + i;
          else if (b === CR) {
            this.#state = 'line-start-cr';
            i++;
          } else if (b === SP || b === HTAB) this.#state = 'line';
          else this.#startField(this.#offset + i, []);
          break;
        case 'name':
          if (b === COLON || b === LF || this.#name.length >= NAME_BYTES) this.#closeName();
          else {
            this.#name.push(b);
            i++;
          }
          break;
        case 'line': {
          const lf = chunk.indexOf(LF, i);
          if (lf === -1) i = chunk.length;
          else {
            i = lf + 1;
            this.#state = 'line-start';
          }
          break;
        }
      }
    }
    this.#offset += chunk.length;
  }

  end(): HeaderSection {
    if (this.#state === 'name') this.#closeName();
    return { fields: this.#fields, exceeded: this.#exceeded, end: this.#end ?? this.#offset };
  }

  #startField(start: number, first: number[]): void {
    if (this.#fields.length >= this.#maxFields) {
      this.#exceeded = true;
      return;
    }
    this.#fields.push({ name: '', start });
    this.#name = first;
    this.#state = 'name';
  }

  /** The name is known: what precedes the colon, trailing blanks dropped (RFC 5322 §4.5 obsolete syntax). */
  #closeName(): void {
    const last = this.#fields.length - 1;
    const field = this.#fields[last];
    if (field !== undefined) {
      const name = Buffer.from(this.#name).toString('latin1').trimEnd().toLowerCase();
      this.#fields[last] = { name, start: field.start };
    }
    this.#name = [];
    this.#state = 'line';
  }
}

/** The header section of a message held whole. */
export function scanHeaderSection(raw: Buffer, maxFields: number = MAX_HEADER_FIELDS): HeaderSection {
  const scanner = new HeaderSectionScanner(maxFields);
  scanner.push(raw);
  return scanner.end();
}

/** Reads a stream to its end (a replay abandoned half-way is not worth its edge cases), scanning its header section. */
export async function scanHeaderStream(
  chunks: AsyncIterable<Buffer>,
  maxFields: number = MAX_HEADER_FIELDS,
): Promise<HeaderSection> {
  const scanner = new HeaderSectionScanner(maxFields);
  for await (const chunk of chunks) if (!scanner.done) scanner.push(chunk);
  return scanner.end();
}

export function countDkimSignatures(section: HeaderSection): number {
  return section.fields.filter((f) => f.name === 'dkim-signature').length;
}

/**
 * The message with every DKIM-Signature field after the first `keep` left out, for the
 * verifier only (the stored bytes are never changed), and how many were left out.
 * A field runs from its start to the next field's start (folded lines included).
 */
export function withoutExtraSignatures(
  raw: Buffer,
  section: HeaderSection,
  keep: number,
): { readonly message: Buffer; readonly left: number } {
  const parts: Buffer[] = [];
  let from = 0;
  let seen = 0;
  let left = 0;
  section.fields.forEach((field, index) => {
    if (field.name !== 'dkim-signature' || ++seen <= keep) return;
    const until = section.fields[index + 1]?.start ?? section.end;
    parts.push(raw.subarray(from, field.start));
    from = until;
    left++;
  });
  if (left === 0) return { message: raw, left };
  parts.push(raw.subarray(from));
  return { message: Buffer.concat(parts), left };
}
