// Realistic reports for the intake tests: an RFC 3464 DSN as Postfix writes it, and an
// RFC 5965 ARF complaint as mailbox providers send them.

export interface DsnInput {
  /** The report's To: (our VERP address, where a DSN goes), or null to leave it out. */
  readonly to: string | null;
  readonly recipient: string;
  readonly messageId: string;
  /** RFC 3463 status, e.g. "5.1.1". */
  readonly status: string;
  /** The remote's reply, e.g. "550 5.1.1 <x@y>: Recipient address rejected: User unknown". */
  readonly diagnostic: string;
  /** Extra text making otherwise equal reports differ (a second copy with other bytes). */
  readonly tag?: string;
}

/** A Postfix-style multipart/report DSN quoting the original message's headers. */
export function buildDsn(d: DsnInput): string {
  const boundary = 'B0UNDARY.1700000000/mx.remote.test';
  const action = d.status.startsWith('5.') ? 'failed' : 'delayed';
  return [
    `Return-Path: <>`,
    `Received: by mx.remote.test (Postfix) id 4AB12C; Tue, 14 Nov 2023 10:00:00 +0000 (UTC)${d.tag ? ` ${d.tag}` : ''}`,
    `Date: Tue, 14 Nov 2023 10:00:00 +0000 (UTC)`,
    `From: MAILER-DAEMON@mx.remote.test (Mail Delivery System)`,
    `Subject: Undelivered Mail Returned to Sender`,
    ...(d.to ? [`To: ${d.to}`] : []),
    `Auto-Submitted: auto-replied`,
    `MIME-Version: 1.0`,
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    `Message-Id: <20231114100000.4AB12C@mx.remote.test>`,
    ``,
    `This is a MIME-encapsulated message.`,
    ``,
    `--${boundary}`,
    `Content-Description: Notification`,
    `Content-Type: text/plain; charset=us-ascii`,
    ``,
    `This is the mail system at host mx.remote.test.`,
    ``,
    `I'm sorry to have to inform you that your message could not`,
    `be delivered to one or more recipients. It's attached below.`,
    ``,
    `<${d.recipient}>: host mx.remote.test[192.0.2.25] said: ${d.diagnostic} (in reply to RCPT TO command)`,
    ``,
    `--${boundary}`,
    `Content-Description: Delivery report`,
    `Content-Type: message/delivery-status`,
    ``,
    `Reporting-MTA: dns; mx.remote.test`,
    `X-Postfix-Queue-ID: 4AB12C`,
    `Arrival-Date: Tue, 14 Nov 2023 09:59:58 +0000 (UTC)`,
    ``,
    `Final-Recipient: rfc822; ${d.recipient}`,
    `Original-Recipient: rfc822;${d.recipient}`,
    `Action: ${action}`,
    `Status: ${d.status}`,
    `Remote-MTA: dns; mx.remote.test`,
    `Diagnostic-Code: smtp; ${d.diagnostic}`,
    ``,
    `--${boundary}`,
    `Content-Description: Undelivered Message Headers`,
    `Content-Type: text/rfc822-headers`,
    ``,
    `Return-Path: <bounce+email_00000000000000000000000000@bounce.sender.test>`,
    `From: Shop <orders@sender.test>`,
    `To: ${d.recipient}`,
    `Subject: Your order`,
    `Message-ID: ${d.messageId}`,
    `Date: Tue, 14 Nov 2023 09:59:50 +0000`,
    ``,
    `--${boundary}--`,
    ``,
  ].join('\r\n');
}

export interface ArfInput {
  readonly to: string | null;
  /** Original-Rcpt-To, or null to leave it out (the returned message's To: then names it). */
  readonly originalRcptTo: string | null;
  readonly recipient: string;
  readonly messageId: string;
}

/** An RFC 5965 abuse report with the complained-about message attached. */
export function buildArf(a: ArfInput): string {
  const boundary = 'ARF_BOUNDARY_42';
  return [
    `From: <feedback@fbl.provider.test>`,
    `Date: Tue, 14 Nov 2023 11:00:00 +0000`,
    `Subject: FW: Your order`,
    ...(a.to ? [`To: ${a.to}`] : []),
    `MIME-Version: 1.0`,
    `Message-ID: <arf-1700000000@fbl.provider.test>`,
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    ``,
    `--${boundary}`,
    `Content-Type: text/plain; charset="US-ASCII"`,
    ``,
    `This is an email abuse report for an email message received from IP 192.0.2.1.`,
    ``,
    `--${boundary}`,
    `Content-Type: message/feedback-report`,
    ``,
    `Feedback-Type: abuse`,
    `User-Agent: SomeGenerator/1.0`,
    `Version: 1`,
    ...(a.originalRcptTo ? [`Original-Rcpt-To: ${a.originalRcptTo}`] : []),
    `Arrival-Date: Tue, 14 Nov 2023 10:59:00 +0000`,
    `Source-IP: 192.0.2.1`,
    `Reported-Domain: sender.test`,
    ``,
    `--${boundary}`,
    `Content-Type: message/rfc822`,
    `Content-Disposition: inline`,
    ``,
    `From: Shop <orders@sender.test>`,
    `To: ${a.recipient}`,
    `Subject: Your order`,
    `Message-ID: ${a.messageId}`,
    `Date: Tue, 14 Nov 2023 09:59:50 +0000`,
    ``,
    `Thanks for your order.`,
    ``,
    `--${boundary}--`,
    ``,
  ].join('\r\n');
}
