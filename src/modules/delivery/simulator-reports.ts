import type { SimulatedOutcome } from '../../mail/simulator';
import { SIMULATOR_DOMAIN } from '../../mail/simulator';

/**
 * The reports a simulator recipient's mailbox provider would send back: an RFC 3464
 * DSN for `bounced@` and `soft-bounced@`, an RFC 5965 ARF report for `complained@`.
 * Each is addressed (envelope and To:) to the message's VERP return path and quotes
 * its headers, so the real intake finds the message and reads the report exactly as
 * it would one from the internet (src/modules/bounces).
 */
export interface ReportSubject {
  readonly emailId: string;
  /** The VERP envelope sender of the message (`bounce+<email_id>@bounce.<domain>`). */
  readonly verp: string;
  readonly recipient: string;
  readonly messageId: string;
  readonly fromHeader: string;
  readonly subject: string;
  readonly at: Date;
}

/** What each reported outcome says: status and reply as a real server words them. */
const DSN_TEXT = {
  bounced: {
    status: '5.1.1',
    diagnostic: '550 5.1.1 The email account that you tried to reach does not exist',
  },
  'soft-bounced': { status: '5.2.2', diagnostic: "552 5.2.2 The recipient's mailbox is full" },
} as const;

export type ReportedOutcome = 'bounced' | 'soft-bounced' | 'complained';

export function isReported(o: SimulatedOutcome): o is ReportedOutcome {
  return o === 'bounced' || o === 'soft-bounced' || o === 'complained';
}

const REPORTING_HOST = `mx.${SIMULATOR_DOMAIN}`;

/** Header values come from our own stored message; line breaks are removed all the same. */
function oneLine(v: string): string {
  return v.replace(/[\r\n]+/g, ' ');
}

function rfc5322Date(d: Date): string {
  return d.toUTCString().replace('GMT', '+0000');
}

function quotedHeaders(s: ReportSubject): string[] {
  return [
    `Return-Path: <${s.verp}>`,
    `From: ${oneLine(s.fromHeader)}`,
    `To: ${s.recipient}`,
    `Subject: ${oneLine(s.subject)}`,
    `Message-ID: ${oneLine(s.messageId)}`,
  ];
}

/** The report's bytes (CRLF line ends), unique per message and recipient. */
export function simulatedReport(outcome: ReportedOutcome, s: ReportSubject): Buffer {
  return Buffer.from((outcome === 'complained' ? arf(s) : dsn(outcome, s)).join('\r\n'), 'utf8');
}

function dsn(outcome: 'bounced' | 'soft-bounced', s: ReportSubject): string[] {
  const { status, diagnostic } = DSN_TEXT[outcome];
  const boundary = `simulator.${s.emailId}`;
  const date = rfc5322Date(s.at);
  return [
    `Return-Path: <>`,
    `Date: ${date}`,
    `From: MAILER-DAEMON@${REPORTING_HOST} (Mail Delivery System)`,
    `Subject: Undelivered Mail Returned to Sender`,
    `To: ${s.verp}`,
    `Auto-Submitted: auto-replied`,
    `MIME-Version: 1.0`,
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    `Message-Id: <dsn.${s.emailId}.${outcome}@${REPORTING_HOST}>`,
    ``,
    `--${boundary}`,
    `Content-Type: text/plain; charset=us-ascii`,
    ``,
    `This report was produced by the Mailroom simulator: ${s.recipient} always answers so.`,
    ``,
    `<${s.recipient}>: host ${REPORTING_HOST} said: ${diagnostic} (in reply to RCPT TO command)`,
    ``,
    `--${boundary}`,
    `Content-Type: message/delivery-status`,
    ``,
    `Reporting-MTA: dns; ${REPORTING_HOST}`,
    `Arrival-Date: ${date}`,
    ``,
    `Final-Recipient: rfc822; ${s.recipient}`,
    `Original-Recipient: rfc822;${s.recipient}`,
    `Action: failed`,
    `Status: ${status}`,
    `Remote-MTA: dns; ${REPORTING_HOST}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    ``,
    `--${boundary}`,
    `Content-Type: text/rfc822-headers`,
    ``,
    ...quotedHeaders(s),
    ``,
    `--${boundary}--`,
    ``,
  ];
}

function arf(s: ReportSubject): string[] {
  const boundary = `simulator.arf.${s.emailId}`;
  const date = rfc5322Date(s.at);
  return [
    `From: <feedback@${REPORTING_HOST}>`,
    `Date: ${date}`,
    `Subject: FW: ${oneLine(s.subject)}`,
    `To: ${s.verp}`,
    `MIME-Version: 1.0`,
    `Message-ID: <arf.${s.emailId}@${REPORTING_HOST}>`,
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    ``,
    `--${boundary}`,
    `Content-Type: text/plain; charset="US-ASCII"`,
    ``,
    `This is an abuse report produced by the Mailroom simulator for ${s.recipient}.`,
    ``,
    `--${boundary}`,
    `Content-Type: message/feedback-report`,
    ``,
    `Feedback-Type: abuse`,
    `User-Agent: MailroomSimulator/1.0`,
    `Version: 1`,
    `Original-Rcpt-To: ${s.recipient}`,
    `Arrival-Date: ${date}`,
    ``,
    `--${boundary}`,
    `Content-Type: text/rfc822-headers`,
    ``,
    ...quotedHeaders(s),
    ``,
    `--${boundary}--`,
    ``,
  ];
}
