// Rows for the documented replies of the largest mailbox providers (Google's "SMTP error
// reference", Microsoft's Exchange Online NDR codes, Outlook.com postmaster codes). They are the
// provider's own verdicts, so they settle the reason (see StatusPattern.decisive).
import type { StatusPattern } from './pattern-row';
import { sure } from './pattern-row';

export const PROVIDER_PATTERNS: readonly StatusPattern[] = [
  // Google.
  sure(
    'mailboxfull',
    /\binbox is out of storage space\b|\bemail quota exceeded\b/,
    "452 4.2.2 The recipient's inbox is out of storage space.",
  ),
  sure(
    'speeding',
    /\bis receiving mail (?:too quickly|at a rate that prevents)\b|\brelay limit exceeded for\b/,
    '450 4.2.1 The user you are trying to contact is receiving mail too quickly.',
  ),
  sure(
    'speeding',
    /\bdaily (?:user )?sending (?:quota|limit) exceeded\b|\bthis mail has been rate limited\b/,
    '550 5.4.5 Daily user sending limit exceeded.',
  ),
  sure(
    'blocked',
    /\ban unusual rate of (?:unsolicited )?mail\b|\bip not in whitelist for rcpt domain\b/,
    '550 5.7.1 Our system has detected an unusual rate of unsolicited mail originating from your IP address.',
  ),
  sure(
    'spamdetected',
    /\blikely unsolicited mail\b|\bdue to the nature of the content or the links within\b/,
    '550 5.7.1 Our system has detected that this message is likely unsolicited mail.',
  ),
  sure(
    'authfailure',
    /\bsenders to authenticate (?:their email )?with (?:either )?(?:spf|dkim)\b|\bfails? to pass spf checks\b|\bhas an spf record with a hard fail\b/,
    '550 5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM.',
  ),
  sure(
    'notcompliantrfc',
    /\bmissing a valid (?:address in the from: header|message-id: header)\b|\bencoded-word syntax is not permitted\b|\bunicode character in a disallowed header\b/,
    '550 5.7.1 Messages missing a valid Message-ID: header are not accepted.',
  ),
  sure(
    'notcompliantrfc',
    /\bmail message is malformed\b|\bis not a valid rfc 5321 address\b/,
    '554 5.6.0 Mail message is malformed. Not accepted.',
  ),
  sure(
    'policyviolation',
    /\bhas a policy that prohibited the mail\b|\bsending messages with the same message-id\b/,
    '550 5.7.1 The user or domain that you are sending to (or from) has a policy that prohibited the mail that you sent.',
  ),
  sure(
    'networkerror',
    /\bmessage exceeded \d+ hops\b/,
    '554 5.4.6 Message exceeded 50 hops, this may indicate a mail loop.',
  ),
  sure(
    'norelaying',
    /\bmail relay denied\b|\binvalid credentials for relay\b|\bnot authorized to send email directly to our servers\b/,
    '550 5.7.0 Mail relay denied.',
  ),
  sure(
    'mesgtoobig',
    /\bexceed(?:s|ed) google's message size limit/,
    "552 5.3.4 Your message exceeded Google's message size limits.",
  ),
  sure(
    'securityerror',
    /\btoo many login attempts\b|\bapplication-specific password required\b|\busername and password not accepted\b|\bplease log in (?:with|through) your web browser\b/,
    '535 5.7.8 Username and Password not accepted.',
  ),
  sure(
    'systemerror',
    /\btemporary system problem\b|\bmail server (?:has )?temporarily rejected (?:this )?message\b|\bmultiple destination domains per transaction\b/,
    '421 4.3.0 Temporary System Problem. Try again later.',
  ),
  sure(
    'expired',
    /\bconnection expired, try reconnecting\b|\btimeout - closing connection\b/,
    '451 4.4.2 Timeout - closing connection.',
  ),

  // Microsoft Exchange Online.
  sure(
    'userunknown',
    /\bremote server returned unknown recipient or mailbox unavailable\b|\b5\.5\.0 requested action not taken: mailbox unavailable\b/,
    '550 5.5.0 Requested action not taken: mailbox unavailable',
  ),
  sure(
    'suspend',
    /\b5\.7\.504 .*recipient address rejected: access denied\b|\baccess denied, banned recipient\b/,
    '550 5.7.505 Access denied, banned recipient.',
  ),
  sure(
    'blocked',
    /\baccess denied, (?:bad helo|rejected by recipient|banned sender\b|banned sending ip)|\busing customer block list\b|\bdoes not accept email over ipv6\b/,
    '550 5.7.606 Access denied, banned sending IP [192.0.2.1].',
  ),
  sure(
    'rejected',
    /\b5\.1\.0 sender denied\b|\baccess denied, bad outbound sender\b|\bsender not in allowed-senders list\b|\bsender (?:was )?not authenticated (?:by organization|for (?:group|mailbox|public folder))\b/,
    '550 5.7.124 Sender not in allowed-senders list',
  ),
  sure(
    'toomanyconn',
    /\bhas exceeded the maximum number of connections\b/,
    '451 4.7.652 The mail server has exceeded the maximum number of connections.',
  ),
  sure(
    'speeding',
    /\breached your daily limit for message recipients\b|\bsubmission quota exceeded\b|\bper hour message receive limit\b|\brecipient thread limit exceeded\b|\bexceeded their limit for\b/,
    "550 5.2.121 Recipient's per hour message receive limit from specific sender exceeded.",
  ),
  sure(
    'networkerror',
    /\b[45]\.4\.312 .*dns query failed\b|\b[45]\.4\.316 .*connection refused\b/,
    '450 4.4.312 DNS query failed',
  ),
  sure(
    'notaccept',
    /\bhosted tenant which has no mail-enabled subscriptions\b/,
    '451 4.4.4 Mail received as unauthenticated, incoming to a recipient domain configured in a hosted tenant which has no mail-enabled subscriptions.',
  ),
  // Outlook.com postmaster codes.
  sure(
    'badreputation',
    /\b(?:rp-00[123]|sc-001|ou-002)\b/,
    "421 RP-001 (COL004-MC1F43) Unfortunately, some messages from 192.0.2.1 weren't sent.",
  ),
  sure(
    'blocked',
    /\b(?:sc-00[34]|dy-001|ou-001)\b/,
    "550 SC-004 (COL004-MC3F2) Unfortunately, messages from 192.0.2.1 weren't sent.",
  ),
  sure(
    'policyviolation',
    /\bsc-002\b/,
    "550 SC-002 (COL004-MC5F16) Unfortunately, messages from 192.0.2.1 weren't sent.",
  ),
  sure(
    'virusdetected',
    /\bdy-002\b/,
    "550 DY-002 (COL004-MC2F20) Unfortunately, messages from 192.0.2.1 weren't sent.",
  ),
];
