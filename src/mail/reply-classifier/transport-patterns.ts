// Table rows for failures of the systems and networks between us and the mailbox (part of the
// table in status-patterns.ts): configuration errors, loops, DNS, timeouts and local mailers.
import type { StatusPattern } from './pattern-row';
import { row } from './pattern-row';

export const TRANSPORT_PATTERNS: readonly StatusPattern[] = [
  // Systems and networks on the way (RFC 3463 X.3.x, X.4.x).
  row(
    'systemerror',
    /\b(?:local|mail system|server|system) config(?:uration)? error\b|\blocal error in processing\b|\btemporary local problem\b|\bqueue file write error\b/,
    '451 4.3.0 Local configuration error',
  ),
  row(
    'systemerror',
    /\bloops? back to myself\b|\baliasing\/forwarding loop broken\b|\bwould create a mail loop\b|\bloop was found in the mail exchanger\b|\bduplicated message-id\b/,
    'mail for example.org loops back to myself',
  ),
  row(
    'systemerror',
    /\binternal (?:server )?error\b|\binterrupted system call\b|\btimeout waiting for input\b|\bremote server is misconfigured\b|\bservice currently unavailable\b/,
    '451 Internal server error',
  ),
  row(
    'systemerror',
    /\bcould not load drd\b|\bthere is no mdb\b|\bunable to connect \S+ daemon\b|\bcan't create user output file\b|\bencountered an error while being processed\b|\btransaction failed\b/,
    "Can't create user output file",
  ),
  row(
    'systemfull',
    /\bmail system full\b|\binsufficient system (?:storage|resources)\b/,
    '452 4.3.1 Insufficient system storage',
  ),
  row(
    'networkerror',
    /\bhost is unreachable\b|\bno route to host\b|\bhost name lookup failure\b|\bhost not found, try again\b|\bmalformed (?:or unexpected )?name server reply\b/,
    'Host name lookup failure',
  ),
  row(
    'networkerror',
    /\bnetwork error\b|\bdns (?:error|failure|lookup failure|query failed|lookup failed)\b|\bname service error\b|\btemporary failure in mx lookup\b|\bno valid route to\b|\ball routes to destination blocked\b|\baddress family mismatch\b|\bloop detected\b/,
    'Network error on destination MXs',
  ),
  row(
    'networkerror',
    /\bunable to resolve route\b|\bunrouteable mail domain\b|\bdns records for the destination computer could not be found\b|\bnetwork is unreachable\b/,
    'Network is unreachable',
  ),
  row(
    'networkerror',
    /\b(?:mail )?forwarding loop\b|\bmessage looping\b|\brouting loop\b|\btoo many hops\b|\bhop count exceeded\b|\bcould not connect and send the mail\b/,
    'mail forwarding loop for a@example.org',
  ),
  row(
    'expired',
    /\bretry timeout exceeded\b|\b(?:delivery|message) (?:time )?expired\b|\b(?:connection |message )?timed out\b|\bgiving up\b|\bgave up\b/,
    'retry timeout exceeded',
  ),
  row(
    'expired',
    /\b(?:in|sitting in) (?:the )?queue (?:too long|for)\b|\btoo long in (?:the )?queue\b|\bcould not be delivered for (?:more than )?\d+ days\b|\bfor the last \d+ seconds\b|\bcould not be delivered for more than\b/,
    'this message has been in the queue too long',
  ),
  row(
    'expired',
    /\benvelope expired\b|\bdelivery failed \d+ attempts\b|\bnot reachable within the allowed queue period\b|\bafter multiple retries\b|\bfailing for a long time\b|\bdelivery attempts will continue\b|\bhas been delayed\b/,
    'Delivery attempts will continue to be made',
  ),
  row(
    'expired',
    /\bdid not accept our requests to connect\b|\bcould not contact dns servers\b/,
    'The recipient server did not accept our requests to connect.',
  ),
  row(
    'expired',
    /\bserver did not respond\b|\bcould not find a gateway for\b|\bfailed to deliver to domain\b|\bnot been collected after\b|\bafter a long failure period\b/,
    'Routing: Could not find a gateway for a@example.org',
  ),
  row(
    'mailererror',
    /\bx-unix;|\bprocmail\b|\bmaildrop\b|\bbin\/maidrop\b|\bcommand (?:failed|died with status|output)\b|\bmailer error\b|\bpipe to \||\|\| exit\b/,
    'Command died with status 1: "/usr/bin/procmail"',
  ),
  row(
    'vacation',
    /\b(?:away|out) (?:on vacation|of (?:the )?office)\b|\bi am away until\b|\bi will be traveling\b|\bon (?:vacation|holiday|leave)\b/,
    'I am out of the office until Monday',
  ),
];
