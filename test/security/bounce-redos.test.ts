// Issue 17 finding 2: bounce reports are attacker text (anyone can mail *@bounce.<verified
// domain>), and one regex that backtracked on a long run of spaces stalled the worker for every
// tenant. Each adversarial report goes through readReport, the reading processReport (the
// bounce-processing job) does, and must finish inside the bound: the fixed parser takes a few
// milliseconds (tens for a full MiB); before the fix 100k spaces took seconds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import type { ReportReading } from '../../src/modules/bounces/classify-report';
import { readReport } from '../../src/modules/bounces/classify-report';
import { REPORT_LIMITS } from '../../src/modules/bounces/mime-message';
import { REPORT_PARSE_BUDGET_MS, withinBudget } from '../../src/modules/bounces/parse-budget';
import { isPermanentJobError } from '../../src/jobs/job-handler';

/**
 * The bound: 100 ms, or 20 times what an ordinary report of the same length takes on this
 * machine in this run, whichever is larger. A shared, loaded machine slows both alike; a
 * backtracking regex is hundreds of times slower than the ordinary report, not twenty.
 */
const BOUND_MS = 100;
const SLOWDOWN_ALLOWED = 20;

const crlf = (...l: string[]): string => l.join('\r\n');

const HEAD = [
  'From: Mail Delivery System <MAILER-DAEMON@mx.far.example>',
  'To: bounce+42@bounce.ours.example',
  'Subject: Undelivered Mail Returned to Sender',
  'MIME-Version: 1.0',
];

/** Base64 in 76-character lines: how a long line gets past the MTA's line wrapping. */
function base64Lines(text: string): string {
  const b64 = Buffer.from(text, 'latin1').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join('\r\n');
}

function base64TextReport(text: string): string {
  return crlf(
    ...HEAD,
    'Content-Type: text/plain',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(text),
  );
}

/**
 * The fastest of three parses: a loaded machine (the suite shares two cores) can deschedule one
 * run, never all three. A run far over the bound ends the measuring (the input is slow).
 */
function fastest(raw: string): { reading: ReportReading; ms: number } {
  const bytes = Buffer.from(raw, 'latin1');
  let best = Infinity;
  let reading: ReportReading = { results: [], originalMessageId: null, originalRecipients: [] };
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    reading = readReport(bytes);
    best = Math.min(best, performance.now() - started);
    if (best > BOUND_MS * 10) break;
  }
  return { reading, ms: best };
}

/** A report of ordinary prose, `length` characters long: the same run's yardstick. */
function ordinaryReport(length: number): string {
  const sentence = 'Your message to <someone@far.example> could not be delivered: mailbox unavailable. ';
  return base64TextReport(sentence.repeat(Math.ceil((length * 3) / 4 / sentence.length)));
}

function assertFast(name: string, raw: string): ReportReading {
  const { reading, ms } = fastest(raw);
  if (ms < BOUND_MS) return reading;
  const yardstick = fastest(ordinaryReport(raw.length)).ms;
  const bound = Math.max(BOUND_MS, yardstick * SLOWDOWN_ALLOWED);
  assert.ok(
    ms < bound,
    `${name}: parse took ${ms.toFixed(1)} ms; an ordinary report of its length ${yardstick.toFixed(1)} ms (bound ${bound.toFixed(0)} ms)`,
  );
  return reading;
}

describe('bounce parsing is linear on adversarial reports (issue 17 finding 2)', () => {
  // The first parse of a process pays for compiling the pattern tables; that is not the input's cost.
  readReport(Buffer.from(base64TextReport('550 5.1.1 <warm@far.example>: user unknown')));

  it('100k spaces in a base64 text part (the reported stall)', () => {
    const reading = assertFast(
      'spaces',
      base64TextReport(`Your message could not be delivered. ${' '.repeat(100_000)}x`),
    );
    assert.equal(reading.results.length, 1);
  });

  it('100k tabs and spaces between an SMTP reply and its continuation', () => {
    const text = `550 5.1.1 <a@far.example>: user unknown (in reply to${' \t'.repeat(50_000)}x\n    RCPT TO command)`;
    const reading = assertFast('tabs', base64TextReport(text));
    assert.equal(reading.results[0]?.recipient, 'a@far.example');
  });

  it('1 MB of "\\n \\n" (continuation lines without end)', () => {
    const reading = assertFast(
      'newline-space',
      base64TextReport(`550 5.1.1 <a@far.example> user unknown${'\n \n'.repeat(350_000)}`),
    );
    assert.equal(reading.results[0]?.recipient, 'a@far.example');
  });

  it('1 MB of "\\n \\n" as plain 8-bit text', () => {
    assertFast(
      'newline-space-8bit',
      crlf(...HEAD, 'Content-Type: text/plain', '', `could not be delivered${'\n \n'.repeat(350_000)}`),
    );
  });

  it('1,000 levels of nested multiparts', () => {
    let open = '';
    let close = '';
    for (let i = 0; i < 1000; i++) {
      open += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
      close = `\r\n--b${i}--${close}`;
    }
    const raw = `${crlf(...HEAD)}\r\n${open}Content-Type: text/plain\r\n\r\n550 5.1.1 <a@far.example> user unknown${close}`;
    assertFast('deep-multipart', raw);
  });

  it('1,000 levels of embedded messages', () => {
    const raw = `${crlf(...HEAD, 'Content-Type: multipart/report; boundary="r"', '', '--r', 'Content-Type: text/plain', '', 'Delivery failed.', '--r')}\r\n${'Content-Type: message/rfc822\r\n\r\n'.repeat(1000)}To: a@far.example\r\n\r\nbody\r\n--r--\r\n`;
    assertFast('deep-rfc822', raw);
  });

  it('10,000 parts', () => {
    const parts: string[] = [];
    for (let i = 0; i < 10_000; i++)
      parts.push('--b', 'Content-Type: text/plain', '', `550 5.1.1 <u${i}@far.example> user unknown`);
    const raw = crlf(...HEAD, 'Content-Type: multipart/report; boundary="b"', '', ...parts, '--b--', '');
    const reading = assertFast('parts', raw);
    assert.ok(reading.results.length > 0 && reading.results.length <= REPORT_LIMITS.maxParts);
  });

  it('long and folded header lines', () => {
    const raw = crlf(
      ...HEAD,
      `X-Long: ${' '.repeat(100_000)}x\r`,
      `X-Folded: a${'\r\n b'.repeat(50_000)}`,
      `Content-Type: text/plain; ${'a'.repeat(100_000)}${'*'.repeat(100_000)}`,
      '',
      '550 5.1.1 <a@far.example> user unknown',
    );
    assertFast('headers', raw);
  });

  it('a DSN whose field values are long blank runs', () => {
    const raw = crlf(
      ...HEAD,
      'Content-Type: multipart/report; report-type=delivery-status; boundary="r"',
      '',
      '--r',
      'Content-Type: message/delivery-status',
      '',
      'Final-Recipient: rfc822; a@far.example',
      'Action: failed',
      'Status: 5.1.1',
      `Diagnostic-Code: smtp; 550${' '.repeat(100_000)}\rx`,
      `X-Postfix-Sender:${' '.repeat(100_000)}\r`,
      '--r--',
    );
    const reading = assertFast('dsn', raw);
    assert.equal(reading.results[0]?.recipient, 'a@far.example');
  });

  it('quoted-printable with a long inner blank run', () => {
    const raw = crlf(
      ...HEAD,
      'Content-Type: text/plain',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      `550 5.1.1 <a@far.example> user unknown${' '.repeat(100_000)}x`,
    );
    assertFast('quoted-printable', raw);
  });

  it('HTML of 100k "<" and an unclosed <style>', () => {
    assertFast(
      'html',
      crlf(
        ...HEAD,
        'Content-Type: text/html',
        '',
        `undeliverable ${'<style'.repeat(20_000)}${'<'.repeat(100_000)}`,
      ),
    );
  });

  it('an mbox of 5,000 messages', () => {
    const from = 'From a@far.example Thu Apr 29 23:34:45 2015\nX-A: b\n\nundeliverable\n';
    assertFast('mbox', from.repeat(5_000));
  });

  it('a 10 MB report is read only up to its first MiB', () => {
    const raw = base64TextReport(`550 5.1.1 <a@far.example> user unknown ${'x '.repeat(5_000_000)}`);
    const reading = assertFast('large', raw);
    assert.equal(reading.results[0]?.recipient, 'a@far.example');
  });

  it('the parse budget interrupts even a backtracking regex, as a permanent (not retried) job error', () => {
    // The shape of the original defect: quadratic in the run of spaces, seconds at this size.
    const slow = (): string => `${' '.repeat(200_000)}x`.replace(/[ \t]*\n[ \t]+/g, ' ');
    const started = performance.now();
    assert.throws(
      () => withinBudget(100, slow),
      (err: unknown) => isPermanentJobError(err) && /took over 100 ms/.test((err as Error).message),
    );
    assert.ok(performance.now() - started < 2_000, 'the budget did not interrupt the regex');
    const raw = Buffer.from(base64TextReport('550 5.1.1 <a@far.example>: user unknown'));
    const reading = withinBudget(REPORT_PARSE_BUDGET_MS, () => readReport(raw));
    assert.equal(reading.results[0]?.recipient, 'a@far.example');
  });
});
