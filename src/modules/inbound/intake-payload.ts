// The contract of an `inbound-processing` job: written by the MX intake (src/mta/inbound-intake.ts),
// read by inbound.job.ts. It lives here, with its consumer, so the module never imports src/mta.

/** The SMTP envelope of an accepted transaction. */
export interface InboundEnvelope {
  /** MAIL FROM address; '' for the null sender (DSNs). */
  readonly mailFrom: string;
  readonly remoteIp: string | null;
  readonly helo: string | null;
  /** RFC 3339: when the message was accepted. */
  readonly receivedAt: string;
}

/** Where an accepted message was stored (inbound/raw-store.ts). */
export interface RawRef {
  /** A file path (SQLite) or `db:<raw_messages.id>` (PostgreSQL); the name predates the rows. */
  readonly rawPath: string;
  readonly sha256: string;
  readonly size: number;
}

/** `inbound-processing` job: one per (message, receiving domain). */
export interface InboundIntakePayload extends RawRef, InboundEnvelope {
  /** The recipients at this domain's receiving host. */
  readonly rcptTo: string[];
  readonly domainId: string;
  readonly userId: string;
}
