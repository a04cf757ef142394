import net from 'node:net';
import type { AppConfig } from '../config';
import type { ListenerSpec } from '../shared/listen-failure';
import { harakaDelivers } from './render-config';

/**
 * Haraka listens on two ports in one process: the public MX (BIND_ADDRESS:SMTP_PORT)
 * and the loopback injection listener (127.0.0.1:MTA_INJECT_PORT). The config table
 * refuses colliding ports, so the local port tells them apart. The submission
 * listeners (SUBMISSION_PORT, and SMTPS_PORT with implicit TLS) count as 'mx' here
 * (their size and recipient limits); plugins/mailroom-submission recognises them by
 * their port.
 */
export type Listener = 'mx' | 'inject';

export function listenerOf(localPort: number | null | undefined, injectPort: number): Listener {
  return localPort === injectPort ? 'inject' : 'mx';
}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 and ::1, also as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
export function isLoopback(ip: string | null | undefined): boolean {
  if (typeof ip !== 'string') return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined;
  return family !== undefined && LOOPBACK.check(address, family);
}

/** Haraka's listeners, named by their settings, as src/mta/render-config.ts lists them in smtp.ini. */
export function mtaListeners(
  config: Pick<
    AppConfig,
    'bindAddress' | 'smtpPort' | 'injectPort' | 'submissionPort' | 'smtpsPort' | 'outboundSender'
  >,
): ListenerSpec[] {
  const host = config.bindAddress;
  return [
    { setting: 'SMTP_PORT', host, port: config.smtpPort },
    // The worker's injection listener exists only while Haraka delivers (OUTBOUND_SENDER=haraka).
    ...(harakaDelivers(config)
      ? [{ setting: 'MTA_INJECT_PORT', host: '127.0.0.1', port: config.injectPort }]
      : []),
    ...(config.submissionPort === 0
      ? []
      : [{ setting: 'SUBMISSION_PORT', host, port: config.submissionPort }]),
    ...(config.smtpsPort === 0 ? [] : [{ setting: 'SMTPS_PORT', host, port: config.smtpsPort }]),
  ];
}
