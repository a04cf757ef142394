// Types for the parts of mailauth 7 that src/mail/dkim-sign.ts builds its signer from
// (the package ships no declarations for them). Internal modules: re-check on upgrade
// (test/unit/mta/mailauth-version.test.ts fails on any other version than MAILAUTH_VERSION_CHECKED).
declare module 'mailauth/lib/dkim/dkim-signer' {
  import { Writable } from 'node:stream';

  export interface SignerSignatureData {
    signingDomain: string;
    selector: string;
    privateKey: string;
    maxBodyLength?: number | '';
    type?: string;
  }

  export interface SignerError {
    readonly err: Error & { readonly code?: string };
  }

  export class DkimSigner extends Writable {
    constructor(options: Record<string, unknown>);
    signatureData: SignerSignatureData[];
    signatureHeaders: string[];
    errors: SignerError[];
    headers: { parsed: unknown[] } | undefined;
    signTime: unknown;
    expires: unknown;
    bodyHashes: Map<string, { hash: string | null }>;
    getFieldNames(signatureData: SignerSignatureData): string;
    validateSigningIdentifiers(signatureData: SignerSignatureData): void;
    getTimestamps(): { timestamp: number | false; expiration: number | false };
    finalize(): Promise<void>;
  }
}

declare module 'mailauth/lib/tools' {
  export interface SigningHeaderLines {
    /** The h= value: the names of the fields signed, as cased in the message, `: `-separated. */
    readonly keys: string;
    readonly headers: readonly { readonly key: string }[];
  }
  export function getSigningHeaderLines(parsedHeaders: unknown[], fieldNames: string): SigningHeaderLines;
  export function formatSignatureHeaderLine(
    type: string,
    values: Record<string, unknown>,
    folded: boolean,
  ): string;
  export function writeToStream(stream: NodeJS.WritableStream, input: Buffer): Promise<void>;
}

declare module 'mailauth/lib/dkim/header' {
  import type { SigningHeaderLines } from 'mailauth/lib/tools';
  export function generateCanonicalizedHeader(
    type: string,
    signingHeaderLines: SigningHeaderLines,
    options: Record<string, unknown>,
  ): { canonicalizedHeader: Buffer; dkimHeaderOpts: Record<string, unknown> };
}
