/**
 * Protocol hygiene that Haraka's core lacks or answers with the wrong code:
 * - RCPT: recipient cap per transaction → 452 4.5.3 (runs before mailroom-rcpt).
 * - end of DATA: bare CR/LF and smuggling sequences → 550 5.6.0.
 * - oversize → 552 5.3.4 instead of Haraka's 550.
 * The decisions are pure functions in src/mta/guard-verdicts.ts.
 */
import {
  MIN_RECIPIENT_CAP,
  lineBreakVerdict,
  oversizeVerdict,
  recipientCapVerdict,
  scanFailedVerdict,
} from '../../src/mta/guard-verdicts';
import { scanLineBreaks } from '../../src/mta/line-breaks';
import { iniInteger } from '../ini';
import { answer, dsnOf } from '../smtp-reply';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

const limits = { maxRecipients: MIN_RECIPIENT_CAP, maxBytes: 0 };

export function register(this: HarakaPlugin): void {
  const cap = iniInteger(this.config.get('mailroom.ini'), 'mailroom.ini', 'guard', 'max_recipients');
  if (cap < MIN_RECIPIENT_CAP) {
    throw new Error(
      `mailroom.ini [guard] max_recipients: RFC 5321 §4.5.3.1.8 requires at least ${MIN_RECIPIENT_CAP}`,
    );
  }
  limits.maxRecipients = cap;
  limits.maxBytes = iniInteger(this.config.get('connection.ini'), 'connection.ini', 'max', 'bytes');
  this.register_hook('rcpt', 'capRecipients');
  this.register_hook('data_post', 'checkLineBreaks');
  this.register_hook('max_data_exceeded', 'refuseOversize');
}

export function capRecipients(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  answer(next, recipientCapVerdict(connection.transaction?.rcpt_count.accept ?? 0, limits.maxRecipients));
}

export function checkLineBreaks(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const transaction = connection.transaction;
  if (transaction === null) {
    next();
    return;
  }
  void scanLineBreaks(transaction.message_stream).then(
    (fault) => {
      if (fault?.smuggling === true) {
        connection.logwarn(this, 'end-of-data look-alike in DATA: SMTP smuggling attempt refused', {
          event: 'smtp_smuggling_refused',
          ip: connection.remote.ip,
          offset: fault.offset,
        });
      }
      answer(next, lineBreakVerdict(fault));
    },
    (err: unknown) => {
      connection.logerror(this, 'could not read the message back for the line-break check', err);
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
  const verdict = oversizeVerdict(limits.maxBytes);
  connection.respond(verdict.code, dsnOf(verdict), () => {
    connection.reset_transaction();
  });
}
