import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceResult } from '../../../src/mail/reply-classifier/bounce-result';
import { classifyReport } from '../../../src/modules/bounces/classify-report';

/** A non-MIME bounce from `from` to the original sender, with `body` and a returned message. */
function bounce(from: string, subject: string, body: string[], extraHeaders: string[] = []): string {
  return [
    `From: ${from}`,
    'To: sender@ours.example',
    `Subject: ${subject}`,
    ...extraHeaders,
    '',
    ...body,
    '',
  ].join('\n');
}

const summary = (results: BounceResult[]) =>
  results.map((r) => [r.recipient, r.status, r.smtpCode, r.kind, r.reason]);

const ORIGINAL = [
  'Return-Path: <sender@ours.example>',
  'Received: from ours.example by mx.ours.example',
  'From: sender@ours.example',
  'To: a@far.example',
  'Message-ID: <m1@ours.example>',
  'Subject: hi',
  '',
  'hello',
];

describe('plain-text bounce formats', () => {
  it('Postfix: "<rcpt>: host ... said: ... (in reply to RCPT TO command)"', () => {
    const raw = bounce(
      'MAILER-DAEMON@mx.ours.example (Mail Delivery System)',
      'Undelivered Mail Returned to Sender',
      [
        'This is the mail system at host mx.ours.example.',
        '',
        'For further assistance, please send mail to <postmaster@mx.ours.example>',
        '',
        '<a@far.example>: host mx.far.example[192.0.2.1] said: 550 5.1.1 <a@far.example>:',
        '    Recipient address rejected: User unknown in local recipient table (in reply to',
        '    RCPT TO command)',
        '',
        '--- Original message follows ---',
        ...ORIGINAL,
      ],
    );
    assert.deepEqual(summary(classifyReport(raw)), [['a@far.example', '5.1.1', 550, 'hard', 'userunknown']]);
  });

  it('qmail: "<rcpt>:" then the remote reply', () => {
    const raw = bounce('MAILER-DAEMON@mx.ours.example', 'failure notice', [
      'Hi. This is the qmail-send program at mx.ours.example.',
      "I'm afraid I wasn't able to deliver your message to the following addresses.",
      "This is a permanent error; I've given up. Sorry it didn't work out.",
      '',
      '<a@far.example>:',
      '192.0.2.1 does not like recipient.',
      'Remote host said: 552 5.2.2 <a@far.example>... Mailbox over quota',
      'Giving up on 192.0.2.1.',
      '',
      '<b@far.example>:',
      "Sorry, I couldn't find any host named far.example. (#5.1.2)",
      '',
      '--- Below this line is a copy of the message.',
      '',
      ...ORIGINAL,
    ]);
    assert.deepEqual(summary(classifyReport(raw)), [
      ['a@far.example', '5.2.2', 552, 'soft', 'mailboxfull'],
      ['b@far.example', '5.1.2', null, 'hard', 'hostunknown'],
    ]);
  });

  it('Exim: indented recipients with the SMTP error below each, X-Failed-Recipients', () => {
    const raw = bounce(
      'Mail Delivery System <Mailer-Daemon@mx.ours.example>',
      'Mail delivery failed: returning message to sender',
      [
        'This message was created automatically by mail delivery software.',
        '',
        'A message that you sent could not be delivered to one or more of its',
        'recipients. This is a permanent error. The following address(es) failed:',
        '',
        '  a@far.example',
        '    SMTP error from remote mail server after RCPT TO:<a@far.example>:',
        '    host mx.far.example [192.0.2.1]: 550 5.1.1 <a@far.example>... No such user',
        '  b@far.example',
        '    SMTP error from remote mail server after end of data:',
        '    host mx.far.example [192.0.2.1]: 554 5.7.1 Message rejected as spam',
        '',
        '------ This is a copy of the message, including all the headers. ------',
        ...ORIGINAL,
      ],
      ['X-Failed-Recipients: a@far.example, b@far.example', 'Auto-Submitted: auto-replied'],
    );
    assert.deepEqual(summary(classifyReport(raw)), [
      ['a@far.example', '5.1.1', 550, 'hard', 'userunknown'],
      ['b@far.example', '5.7.1', 554, 'soft', 'spamdetected'],
    ]);
  });

  it('Sendmail: the recipient list and the session transcript', () => {
    const raw = bounce(
      'Mail Delivery Subsystem <MAILER-DAEMON@mx.ours.example>',
      'Returned mail: see transcript for details',
      [
        '   ----- The following addresses had permanent fatal errors -----',
        '<a@far.example>',
        '    (reason: 550 5.7.1 <a@far.example>... Relaying denied)',
        '',
        '   ----- Transcript of session follows -----',
        '... while talking to mx.far.example.:',
        '>>> RCPT To:<a@far.example>',
        '<<< 550 5.7.1 <a@far.example>... Relaying denied',
        '550 5.7.1 <a@far.example>... Relaying denied',
      ],
    );
    assert.deepEqual(summary(classifyReport(raw)), [['a@far.example', '5.7.1', 550, 'soft', 'norelaying']]);
  });

  it('Exchange 2003: "<rcpt> on <date>" with its own NDR wording', () => {
    const raw = bounce('postmaster@far.example', 'Undeliverable: hi', [
      'Your message',
      '',
      '  To:      sender@ours.example',
      '  Subject: hi',
      '',
      'did not reach the following recipient(s):',
      '',
      'a@far.example on Thu, 29 Apr 2021 16:51:51 -0500',
      '    The recipient name is not recognized',
      '    MSEXCH:IMS:FAR:EXAMPLE:MAIL 0 (000C05A6) Unknown Recipient',
    ]);
    assert.deepEqual(summary(classifyReport(raw)), [['a@far.example', null, null, 'hard', 'userunknown']]);
  });

  it('Gmail (classic): the recipient alone on a line, the remote reply later', () => {
    const raw = bounce(
      'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
      'Delivery Status Notification (Failure)',
      [
        'Delivery to the following recipient failed permanently:',
        '',
        '     a@far.example',
        '',
        'Technical details of permanent failure:',
        'Google tried to deliver your message, but it was rejected by the server for the recipient domain far.example.',
        '',
        'The error that the other server returned was:',
        '550 5.2.1 The email account that you tried to reach is disabled.',
        '',
        '----- Original message -----',
        ...ORIGINAL,
      ],
    );
    assert.deepEqual(summary(classifyReport(raw)), [['a@far.example', '5.2.1', 550, 'soft', 'suspend']]);
  });

  it('Domino and IMail: the reason before or around the address', () => {
    const domino = bounce('Postmaster@far.example', 'DELIVERY FAILURE: User a not listed', [
      'Your message',
      '',
      '  Subject: hi',
      '',
      'was not delivered to:',
      '',
      '  a@far.example',
      '',
      'because:',
      '',
      '  User a (a@far.example) not listed in Domino Directory',
    ]);
    assert.deepEqual(summary(classifyReport(domino)), [['a@far.example', null, null, 'hard', 'userunknown']]);
    const imail = bounce('"Postmaster" <postmaster@far.example>', 'Undeliverable Mail', [
      'User mailbox exceeds allowed size: a@far.example',
      '',
      'Original message follows.',
      '',
      ...ORIGINAL,
    ]);
    assert.deepEqual(summary(classifyReport(imail)), [['a@far.example', null, null, 'soft', 'mailboxfull']]);
  });

  it('Courier: the recipient, then the SMTP transcript', () => {
    const raw = bounce('Courier mail server at mx.ours.example <@>', 'NOTICE: mail delivery status.', [
      '                          UNDELIVERABLE MAIL',
      '',
      'Your message to the following recipients cannot be delivered:',
      '',
      '<a@far.example>:',
      '   mx.far.example [192.0.2.95]:',
      '>>> RCPT TO:<a@far.example>',
      '<<< 550 5.1.1 <a@far.example>... User Unknown',
    ]);
    assert.deepEqual(summary(classifyReport(raw)), [['a@far.example', '5.1.1', 550, 'hard', 'userunknown']]);
  });

  it('recipients listed after the error, and addresses repeated in mailto: links', () => {
    const marshal = bounce('postmaster@far.example', 'Undeliverable Mail: "hi"', [
      'Could not be delivered because of',
      '',
      '550 5.2.2 Mailbox full',
      '',
      'The following recipients were affected:',
      '    a@far.example',
    ]);
    assert.deepEqual(summary(classifyReport(marshal)), [
      ['a@far.example', '5.2.2', 550, 'soft', 'mailboxfull'],
    ]);
    const exchange = bounce('postmaster@outlook.example', 'Undeliverable: hi', [
      'Delivery has failed to these recipients or groups:',
      '',
      'a@far.example<mailto:a@far.example>',
      "The email address you entered couldn't be found.",
      '',
      'Diagnostic information for administrators:',
      '',
      'a@far.example',
      "Remote Server returned '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found'",
    ]);
    assert.deepEqual(summary(classifyReport(exchange)), [
      ['a@far.example', '5.1.10', 550, 'hard', 'userunknown'],
    ]);
  });

  it('delay warnings read as delayed, and expire when nothing else is said', () => {
    const raw = bounce(
      'Mailer Daemon <MAILER-DAEMON@mx.ours.example>',
      'Delivery status notification: warning',
      [
        'A message is delayed for more than 4 hours for the following list of recipients:',
        '',
        'a@far.example: Connection refused',
        '',
        'Please note that this is only a temporary failure report.',
      ],
    );
    const [r] = classifyReport(raw);
    assert.equal(r?.action, 'delayed');
    assert.equal(r?.kind, 'soft');
  });

  it('falls back to the returned message when the text names nobody', () => {
    const raw = bounce('MAILER-DAEMON@mx.ours.example', 'Returned mail: User unknown', [
      '---The following addresses had delivery errors---',
      '',
      'Original message follows.',
      '',
      ...ORIGINAL,
    ]);
    assert.deepEqual(summary(classifyReport(raw)), [['a@far.example', null, null, 'soft', 'onhold']]);
  });
});
