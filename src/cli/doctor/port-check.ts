import net from 'node:net';
import tls from 'node:tls';
import type { Config } from '../../config';
import type { Listener, ListenerState } from '../appliance-probe';
import { applianceListeners, connectHost, greetingName, probeListener } from '../appliance-probe';
import type { CheckResult } from './check-result';
import { result } from './check-result';

export type PortState =
  | { readonly state: 'bindable' }
  | { readonly state: 'ours'; readonly detail: string }
  | { readonly state: 'foreign'; readonly detail: string }
  | { readonly state: 'denied'; readonly code: string };

export function evaluatePort(listener: Listener, state: PortState, uid: number | null): CheckResult {
  const where = `${listener.host}:${listener.port}`;
  const id = `port_${listener.env.toLowerCase()}`;
  const title = `Port ${listener.env}`;
  switch (state.state) {
    case 'bindable':
      return result(id, title, 'ok', `${where} is free and can be bound`);
    case 'ours':
      return result(id, title, 'ok', `${where} is served by Mailroom (running): ${state.detail}`);
    case 'foreign':
      return result(id, title, 'fail', `${where} is taken by another program: ${state.detail}`, [
        `Stop that program, or set ${listener.env} to another port.`,
      ]);
    case 'denied': {
      if (state.code === 'EACCES')
        return result(id, title, 'fail', `not allowed to bind ${where} as uid ${uid ?? '?'}`, [
          'Ports below 1024 need cap_net_bind_service on the node binary (the image sets it: setcap cap_net_bind_service=+ep $(command -v node)), root, or a port of 1024 and above.',
        ]);
      if (state.code === 'EADDRNOTAVAIL')
        return result(id, title, 'fail', `${listener.host} is not an address of this host`, [
          'Set BIND_ADDRESS to one of this host’s addresses, or 0.0.0.0.',
        ]);
      return result(id, title, 'fail', `cannot bind ${where}: ${state.code}`);
    }
  }
}

/**
 * SMTPS_PORT: TLS first (any certificate), then a 220 naming MAIL_HOSTNAME = ours.
 * Bounded by `timeoutMs` overall; never rejects.
 */
export function probeSmtps(
  listener: Listener,
  mailHostname: string,
  timeoutMs = 1500,
): Promise<ListenerState> {
  const host = connectHost(listener.host);
  const where = `${host}:${listener.port}`;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (state: ListenerState): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(state);
    };
    const timer = setTimeout(
      () => finish({ state: 'foreign', detail: `${where}: no TLS greeting within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const socket = tls.connect({ host, port: listener.port, rejectUnauthorized: false });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') finish({ state: 'free' });
      else finish({ state: 'foreign', detail: `${where} does not speak TLS: ${err.code ?? err.message}` });
    });
    socket.setEncoding('latin1');
    let banner = '';
    socket.on('data', (d: string) => {
      banner += d;
      if (!banner.includes('\n')) return;
      const name = greetingName(banner);
      finish(
        name === mailHostname.toLowerCase()
          ? { state: 'ours', detail: `${where} greets over TLS as ${name}` }
          : { state: 'foreign', detail: `${where} greets as ${name ?? banner.trim()}` },
      );
    });
  });
}

type Probe = (listener: Listener, mailHostname: string, timeoutMs: number) => Promise<ListenerState>;

/** Tries to bind the listener's address; when taken, asks who answers there. */
export async function portState(
  listener: Listener,
  mailHostname: string,
  timeoutMs = 1500,
  probe: Probe = probeListener,
): Promise<PortState> {
  const code = await new Promise<string | null>((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'ERROR'));
    server.listen({ host: listener.host, port: listener.port, exclusive: true }, () => {
      server.close(() => resolve(null));
    });
  });
  if (code === null) return { state: 'bindable' };
  if (code !== 'EADDRINUSE') return { state: 'denied', code };
  const who = await probe(listener, mailHostname, timeoutMs);
  if (who.state === 'ours') return { state: 'ours', detail: who.detail };
  if (who.state === 'foreign') return { state: 'foreign', detail: who.detail };
  // In use, but nothing answers from here (e.g. bound to another address only).
  return { state: 'foreign', detail: `in use, no answer on ${connectHost(listener.host)}:${listener.port}` };
}

export async function checkPorts(config: Config): Promise<CheckResult[]> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const listeners: [Listener, Probe][] = applianceListeners(config).map((l) => [l, probeListener]);
  // Implicit TLS: the plain SMTP probe would see no greeting there.
  if (config.smtpsPort !== 0)
    listeners.push([
      { env: 'SMTPS_PORT', host: config.bindAddress, port: config.smtpsPort, kind: 'smtp' },
      probeSmtps,
    ]);
  return Promise.all(
    listeners.map(async ([l, probe]) =>
      evaluatePort(l, await portState(l, config.mailHostname, 1500, probe), uid),
    ),
  );
}
