// Issue 17, finding 6: a full disk must never lose an accepted email. Each test runs a
// whole appliance with DATA_DIR on its own small tmpfs (root mounts it; unmounted after,
// also on failure), an SMTP sink as SMTP_RELAY, and fills the volume.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type { Harness } from '../helpers/tmpfs-appliance';
import { fill, startOnTmpfs, tmpfsSkipReason } from '../helpers/tmpfs-appliance';
import { SmtpClient } from '../helpers/smtp-client';

const MiB = 1024 * 1024;
const ATTACHMENT_BYTES = 700 * 1024;
/** Sending allowances out of the way (a new account may send 20 an hour): only the disk refuses. */
const NO_QUOTA = { RATE_LIMIT_EMAILS_PER_HOUR: '100000', NEW_ACCOUNT_EMAILS_PER_HOUR: '100000' };

const skip = tmpfsSkipReason();
if (skip !== undefined) {
  if (process.env.CI === 'true')
    throw new Error(`test/security/full-disk.test.ts must run under CI: ${skip}`);
  process.stderr.write(
    `\n*** SKIPPED test/security/full-disk.test.ts (issue 17 finding 6, full disk): ${skip}. Run it as root. ***\n\n`,
  );
}

interface Sent {
  readonly id: string;
  readonly subject: string;
  readonly sha256: string;
}

function sendBody(
  h: Harness,
  subject: string,
  content: Buffer,
  scheduledAt?: string,
): Record<string, unknown> {
  return {
    from: `app@${h.domain}`,
    to: 'someone@dest.test',
    subject,
    text: 'see attachment',
    attachments: [{ filename: 'blob.bin', content: content.toString('base64') }],
    ...(scheduledAt === undefined ? {} : { scheduledAt }),
  };
}

/** POST /v1/emails: the 202's id, or the refusal (which must be the spec's error shape). */
async function send(h: Harness, subject: string, scheduledAt?: string): Promise<Sent | { refused: string }> {
  const content = crypto.randomBytes(ATTACHMENT_BYTES);
  const res = await h.app.api.post<{ id?: string; error?: { code: string; message: string } }>('/v1/emails', {
    token: h.apiKey,
    body: sendBody(h, subject, content, scheduledAt),
  });
  if (res.status === 202 && typeof res.body.id === 'string') {
    return { id: res.body.id, subject, sha256: crypto.createHash('sha256').update(content).digest('hex') };
  }
  assert.equal(
    typeof res.body.error?.code,
    'string',
    `refusal without the error shape: ${res.status} ${res.text}`,
  );
  assert.equal(typeof res.body.error?.message, 'string');
  assert.ok(res.status >= 400 && res.status !== 500, `send answered ${res.status}: ${res.text}`);
  return { refused: `${res.status} ${res.body.error?.code}` };
}

async function statusOf(h: Harness, id: string): Promise<string> {
  const res = await h.app.api.get<{ status: string }>(`/v1/emails/${id}`, { token: h.apiKey });
  assert.equal(res.status, 200, res.text);
  return res.body.status;
}

/** Waits until every message is out of queued/processing/sent, then expects all delivered. */
async function expectAllDelivered(h: Harness, sent: readonly Sent[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...sent];
  const final = new Map<string, string>();
  while (pending.length > 0 && Date.now() < deadline) {
    const next: Sent[] = [];
    for (const s of pending) {
      const status = await statusOf(h, s.id);
      if (['queued', 'processing', 'sent'].includes(status)) next.push(s);
      else final.set(s.id, status);
    }
    pending = next;
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 500));
  }
  assert.deepEqual(
    pending.map((s) => s.subject),
    [],
    'messages still not delivered when the test gave up',
  );
  for (const s of sent) assert.equal(final.get(s.id), 'delivered', `${s.subject} ended ${final.get(s.id)}`);
  // Every accepted message arrived once, whole: the attachment's bytes hash as sent.
  const bySubject = new Map<string, string[]>();
  for (const m of h.sink.messages) {
    const parsed = await simpleParser(m.raw);
    const list = bySubject.get(parsed.subject ?? '') ?? [];
    list.push(
      crypto
        .createHash('sha256')
        .update(parsed.attachments[0]?.content ?? Buffer.alloc(0))
        .digest('hex'),
    );
    bySubject.set(parsed.subject ?? '', list);
  }
  for (const s of sent) assert.deepEqual(bySubject.get(s.subject), [s.sha256], `${s.subject} at the sink`);
}

/** Nothing half-written left in the MTA queue (temp files or queue files). */
function queueFiles(h: Harness): string[] {
  const dir = path.join(h.app.dataDir, 'mta-queue');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/**
 * The queue ends empty. Haraka unlinks a delivered message's queue file only after the delivered
 * hook's commit (which the status polls see) returned, so the last file may still be there for a
 * moment; a truncated file stuck in the queue stays for good.
 */
async function expectQueueEmpty(h: Harness): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (queueFiles(h).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(queueFiles(h), []);
}

describe('full disk (issue 17, finding 6)', { skip, timeout: 600_000 }, () => {
  describe('sending until the volume is full, with the free-space floor', () => {
    let h: Harness;
    before(async () => {
      h = await startOnTmpfs('full.example.com', { DISK_FREE_FLOOR_MB: '8', ...NO_QUOTA });
    });
    after(async () => h?.stop());

    it('delivers every accepted message whole and refuses the rest cleanly', async () => {
      const sent: Sent[] = [];
      const refused: string[] = [];
      for (let i = 0; i < 40; i += 4) {
        const batch = await Promise.all([0, 1, 2, 3].map((k) => send(h, `fill ${i + k}`)));
        for (const r of batch) {
          if ('id' in r) sent.push(r);
          else refused.push(r.refused);
        }
      }
      assert.ok(refused.length > 0, 'the volume never reached the floor: the test proves nothing');
      // Retryable and spec-shaped, and the floor check refused before any commit failed.
      assert.deepEqual(new Set(refused), new Set(['503 EMAIL_QUEUE_FAILED']));
      assert.ok(h.app.lines.some((l) => l.includes('"email_refused_disk_floor"')));
      assert.ok(sent.length > 0);
      await expectAllDelivered(h, sent, 240_000);
      await expectQueueEmpty(h);
    });
  });

  describe('the MTA queue write fails mid-file (floor off)', () => {
    let h: Harness;
    before(async () => {
      // Haraka's queue file is what this case is about: the deprecated MTA path writes one per
      // message (the worker's sender writes none; this case goes with that path).
      const env = { DISK_FREE_FLOOR_MB: '0', OUTBOUND_SENDER: 'haraka', ...NO_QUOTA };
      h = await startOnTmpfs('race.example.com', env, 64);
    });
    after(async () => h?.stop());

    it('never answers 250 for a truncated queue file: every accepted message arrives whole', async (t) => {
      // Accepted now, handed to the MTA once the volume is (almost) full: each queue
      // file is ~960 KB and 2 MiB are left, so most writes fail part-way, again on
      // every retry, until the filler goes. Haraka's error/close race then renamed
      // some truncated file into the queue and answered 250 (~2 % of failed writes;
      // without the queue-file check 3 of 3 runs of this test failed, with ~95 failed
      // writes each), and the message then stalled at "socket timeout waiting on dot".
      const due = new Date(Date.now() + 5_000).toISOString();
      const sent: Sent[] = [];
      for (let i = 0; i < 32; i++) {
        const r = await send(h, `race ${i}`, due);
        assert.ok('id' in r, 'the volume is not full yet: every send is accepted');
        sent.push(r);
      }
      const filler = fill(h.volume, 2 * MiB);
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(due) - Date.now()) + 12_000));
      fs.rmSync(filler);
      const failedWrites = h.app.lines.filter((l) => l.includes('Unable to write queue file')).length;
      t.diagnostic(`queue writes that failed while the volume was full: ${failedWrites}`);
      assert.ok(failedWrites > 0, 'no queue write failed: the test proves nothing');
      await expectAllDelivered(h, sent, 240_000);
      await expectQueueEmpty(h);
    });
  });

  describe('below the floor', () => {
    let h: Harness;
    before(async () => {
      h = await startOnTmpfs('floor.example.com', {
        DISK_FREE_FLOOR_MB: '12',
        SUBMISSION_ALLOW_PLAINTEXT: 'true',
      });
    });
    after(async () => h?.stop());

    async function emailCount(): Promise<number> {
      const res = await h.app.api.get<{ data: unknown[] }>('/v1/emails?limit=100', { token: h.apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body.data.length;
    }

    async function mailFromReply(port: number): Promise<number> {
      const { client } = await SmtpClient.connect(port);
      try {
        await client.command('EHLO client.test');
        return (await client.command('MAIL FROM:<someone@elsewhere.test>')).code;
      } finally {
        client.close();
      }
    }

    function submit(): Promise<unknown> {
      return nodemailer
        .createTransport({
          host: '127.0.0.1',
          port: h.app.ports.submission,
          secure: false,
          ignoreTLS: true,
          auth: { user: 'apikey', pass: h.apiKey },
        })
        .sendMail({ from: `app@${h.domain}`, to: 'someone@dest.test', subject: 'submitted', text: 'hi' });
    }

    it('refuses the API, the MX and submission, and /ready says why; all accept again once space is back', async () => {
      const before = await emailCount();
      const filler = fill(h.volume, 6 * MiB);
      await new Promise((r) => setTimeout(r, 1_500)); // the reading is cached for a second

      const res = await h.app.api.post<{
        error: { code: string; message: string; details?: { reason?: string } };
      }>('/v1/emails', { token: h.apiKey, body: sendBody(h, 'under the floor', Buffer.from('x')) });
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.error.code, 'EMAIL_QUEUE_FAILED');
      assert.equal(res.body.error.details?.reason, 'insufficient_storage');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal(await emailCount(), before, 'a refused send committed a row');

      assert.equal(await mailFromReply(h.app.ports.smtp), 452);
      await assert.rejects(submit(), (err: { responseCode?: number; response?: string }) => {
        assert.equal(err.responseCode, 452, err.response);
        assert.match(err.response ?? '', /4\.3\.1/);
        return true;
      });

      const ready = await h.app.api.get<{
        status: string;
        checks: { disk: { ok: boolean; error?: string } };
      }>('/ready');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.checks.disk.ok, false);
      assert.match(ready.body.checks.disk.error ?? '', /under the floor/);

      fs.rmSync(filler);
      await new Promise((r) => setTimeout(r, 1_500));
      const again = await h.app.api.post('/v1/emails', {
        token: h.apiKey,
        body: sendBody(h, 'space is back', Buffer.from('x')),
      });
      assert.equal(again.status, 202, again.text);
      assert.equal(await mailFromReply(h.app.ports.smtp), 250);
      await submit();
      const readyAgain = await h.app.api.get<{ checks: { disk: { ok: boolean } } }>('/ready');
      assert.equal(readyAgain.status, 200, readyAgain.text);
      assert.equal(readyAgain.body.checks.disk.ok, true);
    });
  });
});
