// Test-side helpers for the MTA: a raw-socket SMTP client (so tests see every byte of
// the dialogue, including replies a library would hide), and a runner for the real
// `dist/src/mta/main.js` that collects its stdout.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { SmtpReply } from '../../src/mta/smtp-reply-reader';
import { SmtpReplyReader } from '../../src/mta/smtp-reply-reader';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const MTA_MAIN = path.join(REPO_ROOT, 'dist', 'src', 'mta', 'main.js');

const REPLY_TIMEOUT_MS = 5_000;

/** One SMTP connection, driven line by line. Every method resolves with the server's next reply. */
export class SmtpClient {
  readonly #socket: net.Socket;
  readonly #reader = new SmtpReplyReader();
  readonly #replies: SmtpReply[] = [];
  #waiting: ((reply: SmtpReply | undefined) => void) | undefined;
  #ended = false;
  readonly closed: Promise<void>;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      this.#replies.push(...this.#reader.push(data));
      this.#deliver();
    });
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.#ended = true;
        this.#deliver();
        resolve();
      });
    });
    socket.on('error', () => undefined); // a reset after a refusal is part of some tests
  }

  /** Connects and returns with the greeting already read. */
  static async connect(
    port: number,
    host = '127.0.0.1',
  ): Promise<{ client: SmtpClient; greeting: SmtpReply }> {
    const socket = net.connect({ port, host });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new SmtpClient(socket);
    return { client, greeting: await client.reply() };
  }

  #deliver(): void {
    if (this.#waiting === undefined) return;
    const next = this.#replies.shift();
    if (next === undefined && !this.#ended) return;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting(next);
  }

  /** The next reply; rejects if the connection closes first or nothing comes in time. */
  reply(): Promise<SmtpReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = undefined;
        reject(new Error('no SMTP reply in time'));
      }, REPLY_TIMEOUT_MS);
      this.#waiting = (reply) => {
        clearTimeout(timer);
        if (reply === undefined) reject(new Error('connection closed'));
        else resolve(reply);
      };
      this.#deliver();
    });
  }

  /** Sends one command line (CRLF appended). */
  async command(line: string): Promise<SmtpReply> {
    this.#socket.write(`${line}\r\n`);
    return this.reply();
  }

  /** Sends bytes exactly as given (DATA content with deliberate line-ending faults). */
  async raw(bytes: string | Buffer): Promise<SmtpReply> {
    this.#socket.write(bytes);
    return this.reply();
  }

  /** Replies received but not yet read (e.g. answers to smuggled commands). */
  get unread(): readonly SmtpReply[] {
    return this.#replies;
  }

  get isClosed(): boolean {
    return this.#ended;
  }

  close(): void {
    this.#socket.destroy();
  }
}

export interface MtaProcess {
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function collectLines(stream: NodeJS.ReadableStream, into: string[]): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      into.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
}

/** The parsed stdout line carrying `event`, if any line does. */
export function findEvent(lines: readonly string[], event: string): Record<string, unknown> | undefined {
  for (const line of lines) {
    if (!line.includes(`"${event}"`)) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed.event === event) return parsed;
  }
  return undefined;
}

/** Starts `node dist/src/mta/main.js` with exactly `env` and waits for its `mta_ready` line. */
export async function startMta(env: Record<string, string>, timeoutMs = 20_000): Promise<MtaProcess> {
  const child = spawn(process.execPath, [MTA_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  collectLines(child.stdout, stdout);
  collectLines(child.stderr, stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const mta = { child, stdout, stderr, exited };
  const deadline = Date.now() + timeoutMs;
  while (findEvent(stdout, 'mta_ready') === undefined) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mta did not become ready:\n${[...stdout, ...stderr].slice(-30).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return mta;
}
