// Which SMTP command (RFC 5321 §4.1) a quoted rejection answered. Where in the dialogue a server
// said no matters: a "no such user" after RCPT is about the address, after DATA about the content.
import { trimEndChars, trimStartChars } from '../../shared/text';
import type { SmtpCommand } from './bounce-result';

/** How MTAs name the command they were answering; each row is one wording, checked in order. */
const COMMAND_WORDINGS: readonly { readonly command: SmtpCommand; readonly pattern: RegExp }[] = [
  // Exim: "SMTP error from remote mail server after initial connection:" / "after pipelined ..."
  // qmail-remote: "Connected to 192.0.2.1 but greeting failed."; Postfix: "refused to talk to me".
  {
    command: 'CONN',
    pattern:
      /\bafter initial connection\b|\bSMTP greeting\b|\bbut greeting failed\b|\brefused to talk to me\b|\bgreeting wait\b/i,
  },
  // qmail-remote: "... but my name was rejected."; Gmail: "(state 13)".
  {
    command: 'EHLO',
    pattern:
      /\b(?:after|in reply to|to our) EHLO\b|>>> EHLO\b|\bSMTP:EHLO\b|\bbut my name was rejected\b|\(state 13\)/i,
  },
  { command: 'HELO', pattern: /\b(?:after|in reply to|to our) HELO\b|>>> HELO\b|\bHELO command rejected\b/i },
  { command: 'STARTTLS', pattern: /\b(?:after|in reply to) STARTTLS\b|>>> STARTTLS\b|\(state [69]\)/i },
  { command: 'AUTH', pattern: /\b(?:after|in reply to) AUTH\b|>>> AUTH\b|\(state (?:8|12)\)/i },
  {
    command: 'MAIL',
    pattern:
      /\b(?:after|in reply to|did not like our) MAIL FROM\b|>>> MAIL From\b|\bSMTP:MAIL\b|\[MAIL_FROM\]|\bsender was rejected\b|\bMAIL FROM:<[^>]*>[ \t]*(?::[ \t]*)?$/im,
  },
  {
    command: 'RCPT',
    pattern:
      /\b(?:after|in reply to|did not like our) RCPT(?: TO)?\b|>>> RCPT To\b|\bSMTP:RCPT\b|\[RCPT_TO\]|\bdoes not like recipient\b|\brejected address\b|\(state 14\)|\bmost progress was RCPT\b|\bRCPT TO:<[^>]*>[ \t]*(?::[ \t]*)?$/im,
  },
  {
    command: 'DATA',
    pattern:
      /\b(?:after|in reply to) (?:end of )?DATA\b|\bafter end of data\b|\bdid not like our (?:final )?DATA\b|>>> DATA\b|\bSMTP:DATA\b|\bfor TEXT command\b|\bafter pipelined DATA\b|\bdidn't like our DATA\b|\(DATA\)|\bfailed on DATA command\b|\bfailed after I sent the message\b|\(state 1[578]\)/i,
  },
];

/**
 * Joins continuation lines: MTAs wrap "(in reply to\n    RCPT TO command)". Line by line rather
 * than `/[ \t]*\n[ \t]+/g`, which retried every offset of a long run of blanks: 100k spaces in a
 * report stalled the worker for ~53 s (issue 17 finding 2).
 */
function unfold(raw: string): string {
  const pieces: string[] = [];
  for (const line of raw.split('\n')) {
    const last = pieces.length - 1;
    if (last >= 0 && (line.startsWith(' ') || line.startsWith('\t'))) {
      pieces[last] = trimEndChars(pieces[last] ?? '', ' \t');
      pieces.push(' ', trimStartChars(line, ' \t'));
    } else {
      if (last >= 0) pieces.push('\n');
      pieces.push(line);
    }
  }
  return pieces.join('');
}

/** The command a rejection answered, judged from the text around it; the last mention wins. */
export function findSmtpCommand(raw: string): SmtpCommand | null {
  const text = unfold(raw);
  let found: SmtpCommand | null = null;
  let at = -1;
  for (const { command, pattern } of COMMAND_WORDINGS) {
    const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m.index >= at) {
        at = m.index;
        found = command;
      }
      if (m[0] === '') re.lastIndex++;
    }
  }
  return found;
}

/** Commands sent before the message content; a refusal there cannot be about the content. */
export const BEFORE_DATA: readonly SmtpCommand[] = [
  'CONN',
  'HELO',
  'EHLO',
  'STARTTLS',
  'AUTH',
  'MAIL',
  'RCPT',
];
