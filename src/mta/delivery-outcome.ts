import type { MtaOutcomeKind, MtaOutcomePayload } from '../modules/delivery/mta-outcome';

/**
 * Classification of Haraka's delivery hooks into per-recipient outcomes
 * (MtaOutcomePayload). Pure: plugins/mailroom-outbound reads Haraka's objects
 * into these shapes and writes what comes back as `mta-outcome` jobs.
 *
 * How Haraka 3.3.4 (outbound/hmail.js) reaches each hook:
 * - `delivered`: the remote accepted the message (2xx after the final dot).
 * - `deferred`: `temp_fail()`, i.e. a 4xx (or stray 3xx) from the remote, every MX
 *   unreachable ("Tried all MXs"), a transient DNS error; Haraka retries at
 *   MTA_RETRY_INTERVALS.
 * - `bounce`: a 5xx from the remote, no place to deliver to (NXDOMAIN, no MX and
 *   no A/AAAA, null MX), a reply Haraka cannot parse, a local queue error, or the
 *   retry budget spent (`temp_fail()` once `num_failures` exceeds the number of
 *   intervals, which it then converts to a bounce).
 */

/** What Haraka recorded on a recipient (`dsn_*` properties of its Address). */
export interface RecipientReport {
  readonly address: string;
  /** `dsn_smtp_code`: reply code of the remote, when the remote answered. */
  readonly smtpCode?: string | number | undefined;
  /** `dsn_smtp_extc`: enhanced status code in the remote's reply. */
  readonly smtpExtc?: string | undefined;
  /** `dsn_smtp_response`: the remote's reply text, without code and status. */
  readonly smtpResponse?: string | undefined;
  /** `dsn_status`: the DSN status Haraka assigned (its own for local failures). */
  readonly dsnStatus?: string | undefined;
  /** `dsn_msg`: Haraka's own text for a local failure. */
  readonly dsnMsg?: string | undefined;
  /** `dsn_remote_mta`: the MX that answered. */
  readonly remoteMta?: string | undefined;
}

interface EventBase {
  readonly emailId: string;
  /** `hmail.num_failures` as the hook sees it (see `attempt` below). */
  readonly numFailures: number;
  /** When the hook ran (RFC 3339). */
  readonly at: string;
  /**
   * How the message's SMTP session was protected (src/mta/outbound-tls-session.ts):
   * `<version> <cipher>`, `plaintext`, or null when no session was opened.
   */
  readonly tls?: string | null | undefined;
}

export type DeliveryEvent =
  | (EventBase & {
      readonly hook: 'delivered';
      readonly recipients: readonly string[];
      /** Text of the remote's final reply: Haraka passes the text only, without code or status. */
      readonly response: string;
      readonly host: string | null;
    })
  | (EventBase & {
      readonly hook: 'deferred';
      readonly recipients: readonly RecipientReport[];
      /** Haraka's reason (e.g. `Upstream error: 451 …`, `Tried all MXs`). */
      readonly error: string;
    })
  | (EventBase & {
      readonly hook: 'bounce';
      readonly recipients: readonly RecipientReport[];
      readonly error: string;
      /** Number of retry intervals (`temp_fail_intervals`): past it, the bounce is an exhausted retry. */
      readonly retryBudget: number;
      /** The message could not be DKIM-signed and was stopped before delivery (mailroom-dkim). */
      readonly unsigned?: boolean | undefined;
      /** Every MX address was refused by the outbound guard (src/mta/mx-guard.ts): the reason. */
      readonly refusedMx?: string | undefined;
    });

/** Haraka's `dsn_smtp_code` is a string ('550'); a reply code is three digits, 2xx-5xx. */
export function replyCode(value: string | number | undefined): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  return Number.isInteger(n) && n >= 200 && n <= 599 ? n : null;
}

const STATUS = /^[245]\.\d{1,3}\.\d{1,3}$/;

function status(value: string | undefined): string | null {
  return value !== undefined && STATUS.test(value.trim()) ? value.trim() : null;
}

function nonEmpty(...texts: (string | undefined)[]): string {
  for (const text of texts) if (text !== undefined && text.trim() !== '') return text.trim();
  return '';
}

/**
 * The recipient's domain answered, authoritatively, that it takes no mail: NXDOMAIN or no
 * address at all (Haraka's 5.1.2 on the first attempt, "Nowhere to deliver mail to") or a
 * null MX (RFC 7505, 5.1.10). That is a hard bounce of the address (issue 22 item 1), so it is
 * suppressed like a 5.1.1, not `failed` as if we could not send: a retry finds the same answer.
 * A 5.1.2 after the retries ran out ("Tried all MXs") stays `failed`: no server ever answered.
 */
function isDeadDomain(dsnStatus: string | undefined): boolean {
  return dsnStatus === '5.1.2' || dsnStatus === '5.1.10';
}
/**
 * Everything said about one recipient that was not delivered. `remote` is true
 * when the reply came from the remote server, false for Haraka's own failures
 * (DNS, connection, local errors), whose code (`dsn_code`) is never reported as
 * an SMTP code: `smtpCode` is "the remote's", per MtaOutcomePayload.
 */
function undelivered(
  outcome: MtaOutcomeKind,
  r: RecipientReport,
  error: string,
  tls: string | null,
): Pick<MtaOutcomePayload, 'outcome' | 'smtpCode' | 'enhancedStatus' | 'response' | 'host' | 'tls'> {
  const smtpCode = replyCode(r.smtpCode);
  if (smtpCode !== null) {
    return {
      outcome,
      smtpCode,
      enhancedStatus: status(r.smtpExtc),
      response: nonEmpty(r.smtpResponse, error),
      host: r.remoteMta ?? null,
      tls,
    };
  }
  // Haraka marks a temporary local failure with its own class-5 status (e.g.
  // "Tried all MXs" gets 5.1.2): only a 4.x.x status is meaningful for a deferral.
  const own = status(r.dsnStatus);
  const enhancedStatus = outcome === 'deferred' && own !== null && !own.startsWith('4.') ? null : own;
  // No reply from a remote: whatever session was last opened is not what failed (a refused
  // connection, a broken handshake), so the attempt names no TLS.
  return {
    outcome,
    smtpCode: null,
    enhancedStatus,
    response: nonEmpty(error, r.dsnMsg),
    host: null,
    tls: null,
  };
}

/** Lower-cased envelope recipient, as the email_recipients table keys it. */
function recipient(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * One outcome per affected recipient.
 *
 * | hook        | condition                                    | outcome     | attempt           |
 * |-------------|----------------------------------------------|-------------|-------------------|
 * | `delivered` | remote 2xx                                   | `delivered` | numFailures + 1   |
 * | `deferred`  | any (remote 4xx, no MX reachable, DNS error) | `deferred`  | numFailures       |
 * | `bounce`    | not signed (mailroom-dkim stopped it)        | `failed`    | numFailures + 1   |
 * | `bounce`    | every MX address refused (mx-guard.ts)       | `failed`    | numFailures + 1   |
 * | `bounce`    | numFailures > retryBudget (retries spent)    | `failed`    | numFailures       |
 * | `bounce`    | remote 5xx                                   | `bounced`   | numFailures + 1   |
 * | `bounce`    | anything else (no such domain, null MX …)    | `failed`    | numFailures + 1   |
 *
 * `temp_fail()` increments `num_failures` before the `deferred` hook (and before
 * converting an exhausted message to a bounce), so there it already counts the
 * attempt that just failed; elsewhere it counts the earlier failures.
 */
export function deliveryOutcomes(event: DeliveryEvent): MtaOutcomePayload[] {
  const base = { emailId: event.emailId, at: event.at };
  switch (event.hook) {
    case 'delivered':
      return event.recipients.map((address) => ({
        ...base,
        recipient: recipient(address),
        outcome: 'delivered',
        // Haraka drops the code of the final reply; any 2xx means accepted.
        smtpCode: 250,
        enhancedStatus: null,
        response: event.response.trim(),
        attempt: event.numFailures + 1,
        host: event.host,
        tls: event.tls ?? null,
      }));
    case 'deferred':
      return event.recipients.map((r) => ({
        ...base,
        recipient: recipient(r.address),
        ...undelivered('deferred', r, event.error, event.tls ?? null),
        attempt: Math.max(1, event.numFailures),
      }));
    case 'bounce': {
      const exhausted = event.numFailures > event.retryBudget;
      const attempt = exhausted ? event.numFailures : event.numFailures + 1;
      return event.recipients.map((r) => {
        if (event.unsigned === true) {
          return {
            ...base,
            recipient: recipient(r.address),
            outcome: 'failed',
            smtpCode: null,
            enhancedStatus: '5.7.0',
            response: 'Not delivered: the message could not be DKIM-signed (never sent unsigned)',
            attempt,
            host: null,
          };
        }
        if (event.refusedMx !== undefined) {
          // RFC 3463 X.4.4, unable to route: no usable next hop, no connection made.
          return {
            ...base,
            recipient: recipient(r.address),
            outcome: 'failed',
            smtpCode: null,
            enhancedStatus: '5.4.4',
            response: event.refusedMx,
            attempt,
            host: null,
          };
        }
        const code = replyCode(r.smtpCode);
        const outcome: MtaOutcomeKind =
          !exhausted && ((code !== null && code >= 500) || (code === null && isDeadDomain(r.dsnStatus)))
            ? 'bounced'
            : 'failed';
        return {
          ...base,
          recipient: recipient(r.address),
          ...undelivered(outcome, r, event.error, event.tls ?? null),
          attempt,
        };
      });
    }
  }
}
