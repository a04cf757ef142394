import net from 'node:net';

export type ProbeResult = { ok: true; banner: string } | { ok: false; error: string };

/** Connects, reads the 220 banner, says QUIT. Used by /ready to tell whether the MTA answers. */
export function probeSmtp(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let buffer = '';
    const finish = (result: ProbeResult): void => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (result.ok) socket.end('QUIT\r\n');
      else socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, error: `no SMTP banner within ${timeoutMs} ms` }),
      timeoutMs,
    );
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      const line = buffer.slice(0, end).trim();
      finish(
        line.startsWith('220')
          ? { ok: true, banner: line }
          : { ok: false, error: `unexpected greeting: ${line}` },
      );
    });
    socket.on('error', (err) => finish({ ok: false, error: err.message }));
  });
}
