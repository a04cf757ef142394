import net from 'node:net';
import { parseArgs } from 'node:util';
import { hostPort } from '../../config/parsers';
import { formatReport } from './format-report';
import { runDoctor } from './run-doctor';

export const DOCTOR_USAGE = `  doctor [--json] [--offline]                check this host: configuration, DATA_DIR, disk, TLS,
         [--outbound-probe HOST[:PORT]]      ports, DNS, reverse DNS vs MAIL_HOSTNAME, outbound
         [--public-ip IP]... [--clock-url URL]  port 25, clock; exit code 1 when a check fails`;

/** `ctl doctor …`: prints the report, returns the exit code. */
export async function doctorCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      json: { type: 'boolean', default: false },
      offline: { type: 'boolean', default: false },
      'outbound-probe': { type: 'string' },
      'public-ip': { type: 'string', multiple: true },
      'clock-url': { type: 'string' },
    },
  });
  const publicIps = values['public-ip'] ?? [];
  for (const ip of publicIps) if (!net.isIP(ip)) throw new Error(`--public-ip: not an IP address: ${ip}`);
  const probe = values['outbound-probe'];
  const report = await runDoctor({
    network: !values.offline,
    outboundProbe: probe === undefined ? undefined : hostPort(25)(probe),
    publicIps,
    clockUrl: values['clock-url'],
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.exitCode;
}
