// An SMTP sink that records when each message's DATA ended, for the latency scenario.
// Not test/helpers/smtp-sink.ts: smtp-server holds every new connection's greeting for a
// fixed 100 ms (its "early talker" check, not configurable), which is most of a loopback
// relay's latency; Postfix's smtp-sink answers at once but cannot timestamp per message.
// This one greets at once, advertises PIPELINING, 8BITMIME and SIZE as smtp-sink does (no
// STARTTLS: neither side pays for TLS), and accepts everything.
import { EventEmitter } from 'node:events';
import net from 'node:net';

export interface TimedMessage {
  readonly raw: Buffer;
  /** Epoch ms (fractional) when the terminating "." arrived, just before the 250. */
  readonly receivedAt: number;
}

export interface TimingSink {
  readonly port: number;
  readonly address: string;
  readonly messages: readonly TimedMessage[];
  /** The n-th message (1-based) once it arrived; rejects after timeoutMs. */
  waitFor(n: number, timeoutMs: number): Promise<TimedMessage>;
  reset(): void;
  close(): Promise<void>;
}

const NAME = 'sink.bench.test';
const END_OF_DATA = Buffer.from('\r\n.\r\n');

export async function startTimingSink(): Promise<TimingSink> {
  let messages: TimedMessage[] = [];
  const arrived = new EventEmitter();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    // Pipelined commands get their replies in one segment: written one by one, Nagle held the
    // second reply until the client's delayed ACK (~40 ms on Linux) and the sink measured that.
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buf = Buffer.alloc(0);
    let inData = false;
    const reply = (line: string): void => {
      socket.write(`${line}\r\n`);
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      socket.cork();
      process.nextTick(() => socket.uncork());
      for (;;) {
        if (inData) {
          // The message starts right after "354": a "." alone on the first line ends it too.
          const at = buf.subarray(0, 3).equals(Buffer.from('.\r\n')) ? -2 : buf.indexOf(END_OF_DATA);
          if (at === -1) return;
          const receivedAt = performance.timeOrigin + performance.now();
          messages.push({ raw: at < 0 ? Buffer.alloc(0) : buf.subarray(0, at), receivedAt });
          buf = buf.subarray(at < 0 ? 3 : at + END_OF_DATA.length);
          inData = false;
          reply('250 2.0.0 Ok: queued');
          arrived.emit('message');
          continue;
        }
        const eol = buf.indexOf('\r\n');
        if (eol === -1) return;
        const line = buf.subarray(0, eol).toString('latin1');
        buf = buf.subarray(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply(`250-${NAME}\r\n250-PIPELINING\r\n250-8BITMIME\r\n250 SIZE 52428800`);
        else if (verb === 'HELO' || verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP')
          reply('250 2.0.0 Ok');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
          return;
        } else reply('502 5.5.2 Error: command not recognized');
      }
    });
    reply(`220 ${NAME} ESMTP`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    get messages() {
      return messages;
    },
    waitFor(n, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const m = messages[n - 1];
          if (m === undefined) return false;
          clearTimeout(timer);
          arrived.off('message', check);
          resolve(m);
          return true;
        };
        const timer = setTimeout(() => {
          arrived.off('message', check);
          reject(new Error(`timing sink: message ${n} not received within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) arrived.on('message', check);
      });
    },
    reset() {
      messages = [];
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
