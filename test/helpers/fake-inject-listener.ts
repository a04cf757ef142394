// Haraka's injection listener as the worker's send job sees it, played by smtp-server, so the
// delivery tests can script its replies and read what was handed over.
import { SMTPServer } from 'smtp-server';
import type { SMTPServerDataStream } from 'smtp-server';
import { injectCredential } from '../../src/modules/delivery/inject-credential';

export const SECRET_KEY = 'delivery-test-secret-key-0123456789abcdef';

export interface InjectedMessage {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  readonly raw: Buffer;
  readonly user: string | undefined;
  /** The 250 line the listener answered with. */
  readonly reply: string;
}

/** What the fake listener answers; undefined accepts. */
export interface InjectScript {
  /** Reply to RCPT TO for an address, e.g. `{ code: 550, message: 'no' }`. */
  rcpt?: (address: string) => { code: number; message: string } | undefined;
  /** Reply at end of DATA instead of 250. */
  data?: () => { code: number; message: string } | undefined;
}

export interface FakeInjectListener {
  readonly port: number;
  readonly messages: InjectedMessage[];
  /** AUTH attempts refused (wrong credential). */
  readonly refusedLogins: number;
  script: InjectScript;
  close(): Promise<void>;
}

function smtpError(reply: { code: number; message: string }): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

/**
 * Haraka's injection listener as the worker sees it: AUTH PLAIN required and
 * checked against the credential derived from SECRET_KEY, no STARTTLS, and a
 * 250 that names a queue id, as Haraka's does.
 */
export async function startFakeInjectListener(secretKey = SECRET_KEY): Promise<FakeInjectListener> {
  const expected = injectCredential(secretKey);
  const messages: InjectedMessage[] = [];
  let refusedLogins = 0;
  let queued = 0;
  const state = { script: {} as InjectScript };
  const server = new SMTPServer({
    name: 'mta.test',
    authMethods: ['PLAIN'],
    allowInsecureAuth: true,
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      if (auth.method === 'PLAIN' && auth.username === expected.user && auth.password === expected.pass) {
        callback(null, { user: auth.username });
        return;
      }
      refusedLogins++;
      callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const reply = state.script.rcpt?.(address.address.toLowerCase());
      callback(reply ? smtpError(reply) : null);
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const reply = state.script.data?.();
        if (reply) {
          callback(smtpError(reply));
          return;
        }
        const { mailFrom, rcptTo } = session.envelope;
        queued++;
        const text = `Message Queued (Q${String(queued).padStart(4, '0')})`;
        messages.push({
          mailFrom: mailFrom === false ? '' : mailFrom.address,
          rcptTo: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          user: typeof session.user === 'string' ? session.user : undefined,
          reply: `250 ${text}`,
        });
        callback(null, text);
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const bound = server.server.address();
  if (bound === null || typeof bound === 'string') throw new Error('fake inject listener: no address');
  return {
    port: bound.port,
    messages,
    get refusedLogins() {
      return refusedLogins;
    },
    get script() {
      return state.script;
    },
    set script(s: InjectScript) {
      state.script = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
