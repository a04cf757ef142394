/**
 * Protocol hygiene that Haraka's core lacks or answers with the wrong code:
 * - RCPT: recipient cap per transaction → 452 4.5.3 (runs before mailroom-rcpt).
 * - end of DATA: bare CR/LF and smuggling sequences → 550 5.6.0; on the MX and
 *   submission listeners, a header section over the field or DKIM-Signature count
 *   (src/modules/inbound/header-section.ts) → 554 5.6.0.
 * - size: the public MX is held to EMAIL_MAX_SIZE_BYTES (the SIZE it advertises,
 *   MAIL FROM SIZE=, the data) while Haraka's own, global limit is the larger one
 *   of the injection listener (src/mta/size-limits.ts); oversize → 552 5.3.4
 *   instead of Haraka's 550.
 * The decisions are pure functions in src/mta/guard-verdicts.ts.
 */
import {
  MAX_DKIM_SIGNATURE_FIELDS,
  MAX_HEADER_FIELDS,
  countDkimSignatures,
  scanHeaderStream,
} from '../../src/modules/inbound/header-section';
import {
  MIN_RECIPIENT_CAP,
  headerSectionVerdict,
  lineBreakVerdict,
  oversizeVerdict,
  recipientCapVerdict,
  scanFailedVerdict,
} from '../../src/mta/guard-verdicts';
import { scanLineBreaks } from '../../src/mta/line-breaks';
import type { Listener } from '../../src/mta/listeners';
import { listenerOf } from '../../src/mta/listeners';
import { declaredSize, withSize } from '../../src/mta/size-limits';
import { clientBytes } from '../client-bytes';
import { iniInteger } from '../ini';
import type { SmtpVerdict } from '../../src/mta/smtp-verdict';
import { answer, dsnOf } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin, HarakaTransaction } from '../types';

const limits = {
  injectPort: 0,
  /** Per listener: recipients per transaction, bytes per message. */
  recipients: { mx: MIN_RECIPIENT_CAP, inject: MIN_RECIPIENT_CAP } as Record<Listener, number>,
  bytes: { mx: 0, inject: 0 } as Record<Listener, number>,
};

function listener(connection: HarakaConnection): Listener {
  return listenerOf(connection.local.port, limits.injectPort);
}

export function register(this: HarakaPlugin): void {
  const ini = this.config.get('mailroom.ini');
  for (const [which, key] of [
    ['mx', 'max_recipients'],
    ['inject', 'inject_max_recipients'],
  ] as const) {
    const cap = iniInteger(ini, 'mailroom.ini', 'guard', key);
    if (cap < MIN_RECIPIENT_CAP) {
      throw new Error(
        `mailroom.ini [guard] ${key}: RFC 5321 §4.5.3.1.8 requires at least ${MIN_RECIPIENT_CAP}`,
      );
    }
    limits.recipients[which] = cap;
  }
  limits.injectPort = iniInteger(ini, 'mailroom.ini', 'inject', 'port');
  limits.bytes.mx = iniInteger(ini, 'mailroom.ini', 'guard', 'max_message_bytes');
  limits.bytes.inject = iniInteger(this.config.get('connection.ini'), 'connection.ini', 'max', 'bytes');
  if (limits.bytes.mx > limits.bytes.inject) {
    throw new Error('mailroom.ini [guard] max_message_bytes exceeds connection.ini [max] bytes');
  }
  this.register_hook('capabilities', 'advertiseSize');
  this.register_hook('mail', 'checkDeclaredSize');
  this.register_hook('rcpt', 'capRecipients');
  this.register_hook('data_post', 'checkMessage');
  this.register_hook('max_data_exceeded', 'refuseOversize');
}

/** RFC 1870: the MX advertises EMAIL_MAX_SIZE_BYTES, not Haraka's (injection) limit. */
export function advertiseSize(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  connection.capabilities = withSize(connection.capabilities, limits.bytes[listener(connection)]);
  next();
}

/** RFC 1870 §6: a declared SIZE= above the limit is refused at MAIL FROM with 552. */
export function checkDeclaredSize(
  this: HarakaPlugin,
  next: HarakaNext,
  connection: HarakaConnection,
  params: readonly [unknown, Record<string, unknown> | undefined],
): void {
  const max = limits.bytes[listener(connection)];
  const size = declaredSize(params[1]?.SIZE);
  answer(next, size !== undefined && size > max ? oversizeVerdict(max) : undefined);
}

export function capRecipients(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const cap = limits.recipients[listener(connection)];
  answer(next, recipientCapVerdict(connection.transaction?.rcpt_count.accept ?? 0, cap));
}

/** The header-section bounds, on the client's own header lines (not Haraka's parsed copy, cut at 1000 lines). */
async function headerCheck(transaction: HarakaTransaction): Promise<SmtpVerdict | undefined> {
  const section = await scanHeaderStream(clientBytes(transaction), MAX_HEADER_FIELDS);
  return headerSectionVerdict(section, countDkimSignatures(section), {
    maxFields: MAX_HEADER_FIELDS,
    maxDkimSignatures: MAX_DKIM_SIGNATURE_FIELDS,
  });
}

/**
 * End of DATA: a message over the MX's limit (but under Haraka's, which already
 * sent it to max_data_exceeded otherwise), then the line-break check, then (not on
 * the injection listener, whose messages the worker built) the header section.
 */
export function checkMessage(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  if (transaction === null) {
    next();
    return;
  }
  const which = listener(connection);
  const max = limits.bytes[which];
  if (transaction.data_bytes > max) {
    answer(next, oversizeVerdict(max));
    return;
  }
  void scanLineBreaks(transaction.message_stream)
    .then(async (fault) => {
      if (fault?.smuggling === true) {
        connection.logwarn(this, 'end-of-data look-alike in DATA: SMTP smuggling attempt refused', {
          event: 'smtp_smuggling_refused',
          ip: connection.remote.ip,
          offset: fault.offset,
        });
      }
      const verdict = lineBreakVerdict(fault);
      if (verdict !== undefined || which === 'inject') return verdict;
      const refused = await headerCheck(transaction);
      if (refused !== undefined) {
        connection.logwarn(this, 'header section over its bounds: message refused', {
          event: 'smtp_header_section_refused',
          ip: connection.remote.ip,
          reply: refused.text,
        });
      }
      return refused;
    })
    .then(
      (verdict) => answer(next, verdict),
      (err: unknown) => {
        connection.logerror(this, 'could not read the message back for the end-of-data checks', err);
        answer(next, scanFailedVerdict());
      },
    );
}

/**
 * Haraka's max_data_exceeded_respond() ignores the hook's message and always
 * says 550 (450 for DENYSOFT), so the reply is written here and `next` is
 * deliberately never called: reset_transaction() runs a "required" hook, which
 * cancels this pending hook and its timeout (plugins.js run_hooks), and resumes
 * the connection for the client's next command.
 */
export function refuseOversize(this: HarakaPlugin, _next: HarakaNext, connection: HarakaConnection): void {
  const verdict = oversizeVerdict(limits.bytes[listener(connection)]);
  connection.respond(verdict.code, dsnOf(verdict), () => {
    connection.reset_transaction();
  });
}
