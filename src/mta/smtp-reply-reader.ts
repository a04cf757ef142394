/** One complete SMTP reply (RFC 5321 §4.2): `250-a`, `250-b`, `250 c` is one reply of three lines. */
export interface SmtpReply {
  readonly code: number;
  /** Text of each line, without the code and separator. */
  readonly lines: readonly string[];
  /** The reply as received, lines joined with `\n`. */
  readonly raw: string;
}

const REPLY_LINE = /^(\d{3})(?:([ -])(.*))?$/;

/**
 * Splits the server's byte stream into replies. Feed it whatever arrived; it
 * returns the replies completed by that data. A line that is not a reply line
 * is a protocol error: it is returned as code 0 so the caller can fail on it.
 */
export class SmtpReplyReader {
  #buffer = '';
  #pending: string[] = [];

  push(data: string): SmtpReply[] {
    this.#buffer += data;
    const replies: SmtpReply[] = [];
    let newline: number;
    while ((newline = this.#buffer.indexOf('\n')) !== -1) {
      const line = this.#buffer.slice(0, newline).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(newline + 1);
      this.#pending.push(line);
      const match = REPLY_LINE.exec(line);
      // RFC 5321 §4.2.1: "250-" continues the reply, "250 " (or a bare code) ends it.
      if (match?.[2] === '-') continue;
      replies.push(this.#complete(match === null ? 0 : Number(match[1])));
    }
    return replies;
  }

  #complete(code: number): SmtpReply {
    const lines = this.#pending.map((l) => l.slice(4));
    const raw = this.#pending.join('\n');
    this.#pending = [];
    return { code, lines, raw };
  }
}
