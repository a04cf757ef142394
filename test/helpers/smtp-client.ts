// A raw-socket SMTP client, so tests see every byte of the dialogue, including replies a
// library would hide.
import net from 'node:net';
import type { SmtpReply } from '../../src/mta/smtp-reply-reader';
import { SmtpReplyReader } from '../../src/mta/smtp-reply-reader';

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
