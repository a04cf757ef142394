// SMTP sink for integration tests: stands in for a remote MX or smarthost, records what it is
// given and lets a test script per-recipient (RCPT) and per-message (end of DATA) replies.
import { SMTPServer } from 'smtp-server';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';

export type SmtpReplyCode = 421 | 450 | 451 | 452 | 550 | 551 | 552 | 553 | 554;
export interface SmtpReply {
  code: SmtpReplyCode;
  message: string;
}
/** A fixed reply, or a script over the 1-based attempt number (e.g. defer twice, then accept). */
export type SmtpBehaviour = SmtpReply | ((attempt: number) => SmtpReply | 'accept');

export interface SinkMessage {
  /** Envelope sender as given in MAIL FROM; '' for the null sender. */
  mailFrom: string;
  /** Accepted recipients only, as given in RCPT TO (case preserved). */
  rcptTo: string[];
  /** The DATA payload as received, dot-unstuffed, without the terminating ".\r\n". */
  raw: Buffer;
  receivedAt: Date;
  /** Whether the transaction ran over STARTTLS. */
  secure: boolean;
  /** Name the client gave in EHLO/HELO. */
  helo: string;
  /** The client's address as the sink saw it (the sender's source address). */
  remoteAddress: string;
  /** The user the client authenticated as (with the `auth` option), else undefined. */
  user?: string | undefined;
}

export interface SmtpSinkOptions {
  /** Advertised SIZE; larger messages get 552. Default 50 MiB. */
  maxSize?: number;
  /** e.g. ['STARTTLS'] to act as a server without TLS. STARTTLS is offered by default. */
  disabledCommands?: string[];
  /** Hostname in the banner and EHLO reply. */
  name?: string;
  /** Listen address: any loopback address (127.0.0.0/8, ::1) to stand in for one MX. Default 127.0.0.1. */
  host?: string;
  /** Listen port; default a free one. Sinks for several MXs share one port on different addresses. */
  port?: number;
  /** STARTTLS key and certificate (PEM); default smtp-server's built-in test pair (for localhost). */
  tls?: { key: Buffer; cert: Buffer };
  /** Require AUTH (PLAIN/LOGIN, after STARTTLS) with these credentials, as a smarthost does. */
  auth?: { user: string; pass: string };
  /** Greet every connection with this (e.g. 421 busy) and close, instead of 220. */
  greeting?: { code: 421 | 554; message: string };
}

export interface SmtpSink {
  readonly host: string;
  readonly port: number;
  /** "127.0.0.1:<port>" */
  readonly address: string;
  /** Messages accepted so far, in arrival order. */
  readonly messages: readonly SinkMessage[];
  /** Resolves with all messages once at least n have arrived. */
  waitForMessages(n: number, timeoutMs?: number): Promise<SinkMessage[]>;
  /** Reply to RCPT TO for this address (case-insensitive); undefined restores plain acceptance. */
  setRecipientBehaviour(address: string, behaviour: SmtpBehaviour | undefined): void;
  /** Answer RCPT TO for this address only after `ms` (a slow remote: the delivery stays in flight). */
  setRecipientDelay(address: string, ms: number): void;
  /** Connections accepted so far (including ones refused at the greeting). */
  readonly connections: number;
  /** RCPT TO commands seen for this address, accepted or not. */
  rcptAttempts(address: string): number;
  /** Reply at end of DATA for every message (attempt counts DATA transactions); undefined accepts. */
  setDataBehaviour(behaviour: SmtpBehaviour | undefined): void;
  /** Forgets messages, behaviours and attempt counters. */
  reset(): void;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const DEFAULT_MAX_SIZE = 50 * 1024 * 1024;

function smtpError(reply: SmtpReply): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

function decide(behaviour: SmtpBehaviour | undefined, attempt: number): SmtpReply | 'accept' {
  if (behaviour === undefined) return 'accept';
  return typeof behaviour === 'function' ? behaviour(attempt) : behaviour;
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Waiter {
  n: number;
  resolve: (messages: SinkMessage[]) => void;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<Waiter>();
  const recipientBehaviours = new Map<string, SmtpBehaviour>();
  const delays = new Map<string, number>();
  const attempts = new Map<string, number>();
  let dataBehaviour: SmtpBehaviour | undefined;
  let dataAttempts = 0;
  let connections = 0;
  const host = options.host ?? HOST;

  const record = (message: SinkMessage): void => {
    messages.push(message);
    for (const waiter of waiters) {
      if (messages.length >= waiter.n) {
        waiters.delete(waiter);
        waiter.resolve([...messages]);
      }
    }
  };

  const onData = async (stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> => {
    const raw = await readAll(stream);
    // rejectOversized already answers 552; the message must not be recorded either.
    if (stream.sizeExceeded) return;
    dataAttempts++;
    const decision = decide(dataBehaviour, dataAttempts);
    if (decision !== 'accept') throw smtpError(decision);
    const { mailFrom, rcptTo } = session.envelope;
    record({
      mailFrom: mailFrom === false ? '' : mailFrom.address,
      rcptTo: rcptTo.map((r) => r.address),
      raw,
      receivedAt: new Date(),
      secure: session.secure,
      helo: session.hostNameAppearsAs,
      remoteAddress: session.remoteAddress,
      user: typeof session.user === 'string' ? session.user : undefined,
    });
  };

  const server = new SMTPServer({
    name: options.name ?? 'sink.test',
    authOptional: options.auth === undefined,
    onAuth(auth, _session, callback) {
      const ok =
        options.auth !== undefined &&
        auth.username === options.auth.user &&
        auth.password === options.auth.pass;
      if (ok) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    disabledCommands: options.disabledCommands ?? [],
    size: options.maxSize ?? DEFAULT_MAX_SIZE,
    rejectOversized: true,
    // Without a logger: false, smtp-server prints a warning about its built-in test certificate.
    logger: false,
    // The default reverse lookup of each client goes to the system resolver, which tests must not
    // depend on (and which can stall the greeting for up to 1.5 s when it is unreachable).
    disableReverseLookup: true,
    ...(options.tls ?? {}),
    // Backstop for clients that ignore the 421 sent by close().
    closeTimeout: 1000,
    onConnect(_session, callback) {
      connections++;
      callback(options.greeting === undefined ? null : smtpError(options.greeting));
    },
    onRcptTo(address, _session, callback) {
      const key = address.address.toLowerCase();
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      const decision = decide(recipientBehaviours.get(key), attempt);
      const answer = () => callback(decision === 'accept' ? null : smtpError(decision));
      const delay = delays.get(key);
      if (delay === undefined) answer();
      else setTimeout(answer, delay);
    },
    onData(stream, session, callback) {
      onData(stream, session).then(
        () => callback(),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    },
  });
  // Client resets and TLS failures surface here; without a listener they would crash the test run.
  server.on('error', () => undefined);

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const bound = server.server.address();
  if (bound === null || typeof bound === 'string') throw new Error('SMTP sink: no TCP address');
  const port = bound.port;

  let closed: Promise<void> | undefined;
  return {
    host,
    port,
    address: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    messages,
    get connections() {
      return connections;
    },
    waitForMessages(n, timeoutMs = 10_000) {
      if (messages.length >= n) return Promise.resolve([...messages]);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          n,
          resolve: (received) => {
            clearTimeout(timer);
            resolve(received);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `SMTP sink ${host}:${port}: expected ${n} message(s) within ${timeoutMs} ms, ` +
                `but ${messages.length} arrived`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    setRecipientBehaviour(address, behaviour) {
      const key = address.toLowerCase();
      if (behaviour === undefined) recipientBehaviours.delete(key);
      else recipientBehaviours.set(key, behaviour);
    },
    rcptAttempts(address) {
      return attempts.get(address.toLowerCase()) ?? 0;
    },
    setRecipientDelay(address, ms) {
      delays.set(address.toLowerCase(), ms);
    },
    setDataBehaviour(behaviour) {
      dataBehaviour = behaviour;
      dataAttempts = 0;
    },
    reset() {
      messages.length = 0;
      recipientBehaviours.clear();
      delays.clear();
      attempts.clear();
      dataBehaviour = undefined;
      dataAttempts = 0;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle client connections (pools) would otherwise hold close() until closeTimeout.
        for (const connection of server.connections) {
          connection.send(421, 'Server shutting down');
          connection.close();
        }
      });
      return closed;
    },
  };
}
