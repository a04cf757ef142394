import net from 'node:net';
import { SmtpReplyReader } from './smtp-reply-reader';

export type ProbeResult =
  { readonly ok: true; readonly banner: string } | { readonly ok: false; readonly error: string };

/** Where the local MTA can be reached from this process (a wildcard BIND_ADDRESS: loopback). */
export function mtaProbeHost(bindAddress: string): string {
  return bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
}

/**
 * Readiness of an SMTP listener: connect, read the greeting, say QUIT. Only a
 * 220 counts (RFC 5321 §4.3.1: 554 on connect means "no service here"). Never
 * rejects; the whole exchange is bounded by `timeoutMs`.
 */
export function probeSmtp(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const reader = new SmtpReplyReader();
    let settled = false;
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no SMTP greeting within ${timeoutMs} ms` });
      socket.destroy();
    }, timeoutMs);

    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      const reply = reader.push(data)[0];
      if (reply === undefined || settled) return;
      if (reply.code === 220) {
        finish({ ok: true, banner: reply.raw });
        // Polite close: QUIT, and do not wait for the 221 (it proves nothing more).
        socket.end('QUIT\r\n');
      } else {
        finish({ ok: false, error: `unexpected greeting: ${reply.raw}` });
        socket.destroy();
      }
    });
    socket.on('error', (err) => {
      finish({ ok: false, error: err.message });
      socket.destroy();
    });
    socket.on('close', () => {
      finish({ ok: false, error: 'connection closed before the greeting' });
    });
  });
}
