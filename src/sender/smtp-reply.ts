/**
 * A remote's SMTP reply as the outcome path records it (src/modules/delivery/mta-outcome.ts):
 * the code, the RFC 3463 enhanced status when the reply carries one (RFC 2034), and the text
 * without either. A multi-line reply (RFC 5321 §4.2.1) keeps every line's text.
 */
export interface ParsedReply {
  readonly code: number | null;
  readonly enhancedStatus: string | null;
  readonly text: string;
}

const LINE = /^([2-5]\d\d)([ -]|$)(.*)$/;
const STATUS = /^([245]\.\d{1,3}\.\d{1,3})(?:\s+|$)/;

export function parseReply(reply: string): ParsedReply {
  const lines = reply.split(/\r?\n/).filter((line) => line !== '');
  let code: number | null = null;
  let enhancedStatus: string | null = null;
  const texts: string[] = [];
  for (const line of lines) {
    const m = LINE.exec(line);
    if (m === null) {
      texts.push(line.trim());
      continue;
    }
    code = Number(m[1]);
    let text = (m[3] ?? '').trim();
    const status = STATUS.exec(text);
    if (status !== null) {
      enhancedStatus = status[1] ?? null;
      text = text.slice(status[0].length);
    }
    texts.push(text);
  }
  return { code, enhancedStatus, text: texts.filter((t) => t !== '').join(' ') };
}
