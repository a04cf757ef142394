import net from 'node:net';
import type { Config } from '../../config';
import { probeSmtp } from '../../mta/probe';
import type { CheckResult, CheckStatus } from './check-result';
import { result } from './check-result';
import type { Dns } from './dns-check';
import { lookup } from './dns-check';
import type { DoctorOptions } from './doctor-options';

/** Connect, read the greeting, QUIT; each step bounded by `timeoutMs`. */
export async function probeOutbound(
  host: string,
  port: number,
  timeoutMs: number,
): Promise<
  { ok: true; banner: string; ms: number } | { ok: false; stage: 'connect' | 'greeting'; error: string }
> {
  const started = Date.now();
  const connected = await new Promise<string | null>((resolve) => {
    const socket = net.connect({ host, port });
    const done = (err: string | null): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(err);
    };
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms (filtered?)`), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
  if (connected !== null) return { ok: false, stage: 'connect', error: connected };
  const greeting = await probeSmtp(host, port, timeoutMs);
  if (!greeting.ok) return { ok: false, stage: 'greeting', error: greeting.error };
  return { ok: true, banner: greeting.banner.split(/\r?\n/)[0] ?? '', ms: Date.now() - started };
}

export async function checkOutbound(
  config: Config,
  resolver: Dns | null,
  options: DoctorOptions,
): Promise<CheckResult> {
  const title = 'Outbound SMTP';
  const timeoutMs = options.outboundTimeoutMs ?? 5000;
  let target: { host: string; port: number; label: string; relay: boolean };
  if (options.outboundProbe !== undefined) {
    target = { ...options.outboundProbe, label: 'the probe target', relay: false };
  } else if (config.smtpRelay !== undefined) {
    target = { host: config.smtpRelay.host, port: config.smtpRelay.port, label: 'SMTP_RELAY', relay: true };
  } else {
    const domain = options.wellKnownDomain ?? 'gmail.com';
    if (resolver === null) return result('outbound', title, 'skip', 'DNS is not working');
    const mx = await lookup(() => resolver.resolveMx(domain));
    const best = mx.ok ? [...mx.value].sort((x, y) => x.priority - y.priority)[0] : undefined;
    if (best === undefined)
      return result(
        'outbound',
        title,
        'warn',
        `no MX for ${domain} to test with (${mx.ok ? 'empty' : mx.problem})`,
      );
    const ips = await lookup(() => resolver.resolve4(best.exchange));
    const ip = ips.ok ? ips.value[0] : undefined;
    if (ip === undefined) return result('outbound', title, 'warn', `cannot resolve ${best.exchange}`);
    target = { host: ip, port: 25, label: `${best.exchange} (MX of ${domain})`, relay: false };
  }
  const where = `${target.host}:${target.port}`;
  const probe = await probeOutbound(target.host, target.port, timeoutMs);
  const details = { target: where, label: target.label };
  if (probe.ok)
    return result(
      'outbound',
      title,
      'ok',
      `reached ${target.label} at ${where} in ${probe.ms} ms: ${probe.banner}`,
      [],
      details,
    );
  const status: CheckStatus = target.relay ? 'fail' : 'warn';
  const hints =
    probe.stage === 'connect'
      ? target.relay
        ? ['Check SMTP_RELAY: every outbound message goes there.']
        : [
            'Outbound port 25 looks blocked: many cloud providers block it by default (ask them to lift it), or set SMTP_RELAY to a smarthost.',
          ]
      : ['A connection opened but no SMTP greeting came: something in between intercepts port 25.'];
  return result(
    'outbound',
    title,
    status,
    `${target.label} at ${where}: ${probe.stage} failed: ${probe.error}`,
    hints,
    details,
  );
}
