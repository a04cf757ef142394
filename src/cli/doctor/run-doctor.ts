import { processEnv } from '../../config';
import type { CheckResult } from './check-result';
import { result } from './check-result';
import { clockFloorMs, evaluateClock, referenceTime } from './clock-check';
import { checkConfig } from './config-check';
import { checkDataDir } from './data-dir-check';
import { checkDisk } from './disk-check';
import { checkDns, makeResolver } from './dns-check';
import type { DoctorOptions } from './doctor-options';
import type { DoctorReport } from './doctor-report';
import { buildReport } from './doctor-report';
import { checkOutbound } from './outbound-check';
import { checkPorts } from './port-check';
import { checkReverseDns, localPublicAddresses } from './reverse-dns-check';
import { checkSecret } from './secret-check';
import { checkTls } from './tls-check';

/**
 * `npm run ctl -- doctor [--json]`: checks the host the appliance runs on and
 * prints a readable report. Every network step has a short timeout; nothing
 * here can hang. Network checks go only where the configuration points
 * (DNS_SERVERS, SMTP_RELAY) or where a flag says.
 */

/** Runs every check; never throws for a failing check, never hangs. */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? processEnv();
  const now = options.now ?? Date.now;
  const network = options.network ?? true;
  const checks: CheckResult[] = [];

  const { config, check } = checkConfig(env);
  checks.push(check);
  if (config === null) {
    for (const [id, title] of [
      ['data_dir', 'DATA_DIR'],
      ['tls', 'TLS certificate'],
      ['ports', 'Ports'],
      ['dns', 'DNS resolver'],
      ['outbound', 'Outbound SMTP'],
    ] as const)
      checks.push(result(id, title, 'skip', 'configuration invalid'));
  } else {
    checks.push(await checkDataDir(config), await checkSecret(config), await checkDisk(config));
    checks.push(checkTls(config, now()));
    checks.push(...(await checkPorts(config)));
    if (network) {
      const resolver = makeResolver(config, options.dnsTimeoutMs ?? 2000);
      const dnsCheck = await checkDns(config, resolver);
      checks.push(dnsCheck.check);
      const local = [...(options.interfaceAddresses ?? localPublicAddresses)(), ...(options.publicIps ?? [])];
      checks.push(
        dnsCheck.working
          ? await checkReverseDns(config, resolver, dnsCheck.forward, [...new Set(local)])
          : result('reverse_dns', 'Reverse DNS', 'skip', 'DNS is not working'),
      );
      checks.push(await checkOutbound(config, dnsCheck.working ? resolver : null, options));
    } else {
      for (const [id, title] of [
        ['dns', 'DNS resolver'],
        ['reverse_dns', 'Reverse DNS'],
        ['outbound', 'Outbound SMTP'],
      ] as const)
        checks.push(result(id, title, 'skip', '--offline'));
    }
  }
  const reference =
    options.clockUrl !== undefined && network ? await referenceTime(options.clockUrl, 5000) : undefined;
  checks.push(
    evaluateClock(
      reference === undefined
        ? { nowMs: now(), floorMs: clockFloorMs() }
        : { nowMs: now(), floorMs: clockFloorMs(), reference },
    ),
  );
  return buildReport(config?.dataDir ?? null, checks, now());
}
