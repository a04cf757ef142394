import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { startSmtpSink } from './smtp-sink';
import type { SmtpSink } from './smtp-sink';

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
}

function transport(sink: SmtpSink) {
  return nodemailer.createTransport({
    host: sink.host,
    port: sink.port,
    secure: false,
    tls: { rejectUnauthorized: false },
    name: 'client.test',
  });
}

async function rejectsWithResponseCode(promise: Promise<unknown>, responseCode: number): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.equal((err as SmtpFailure).responseCode, responseCode, (err as Error).message);
    return true;
  });
}

void describe('SMTP sink', () => {
  let sink: SmtpSink;

  before(async () => {
    sink = await startSmtpSink({ maxSize: 64 * 1024 });
  });
  after(async () => {
    await sink.close();
  });
  beforeEach(() => {
    sink.reset();
  });

  void it('records envelope and raw bytes of a message sent over STARTTLS', async () => {
    assert.equal(sink.address, `127.0.0.1:${sink.port}`);
    const body = 'line one\r\n.leading dot survives\r\nlast line';
    const info = await transport(sink).sendMail({
      envelope: { from: 'bounce+123@mailroom.test', to: ['Alice@Example.com', 'bob@example.com'] },
      from: 'sender@mailroom.test',
      to: 'alice@example.com',
      subject: 'hello sink',
      text: body,
    });
    // nodemailer lower-cases the domain (not the local part) of envelope addresses; the sink keeps
    // whatever arrives on the wire.
    assert.deepEqual(info.accepted, ['Alice@example.com', 'bob@example.com']);

    const [message] = await sink.waitForMessages(1);
    assert.ok(message);
    assert.equal(message.mailFrom, 'bounce+123@mailroom.test');
    assert.deepEqual(message.rcptTo, ['Alice@example.com', 'bob@example.com']);
    assert.equal(message.secure, true);
    assert.equal(message.helo, 'client.test');
    assert.ok(message.receivedAt instanceof Date);
    const raw = message.raw.toString('utf8');
    assert.match(raw, /^Subject: hello sink\r$/m);
    assert.match(raw, /^Message-ID: /m);
    assert.ok(raw.endsWith(`\r\n\r\n${body}\r\n`), JSON.stringify(raw.slice(-80)));
  });

  void it('reports a 550 recipient in nodemailer’s rejected list', async () => {
    sink.setRecipientBehaviour('GONE@example.com', { code: 550, message: '5.1.1 No such user' });
    const info = await transport(sink).sendMail({
      from: 'sender@mailroom.test',
      to: ['a@example.com', 'gone@example.com', 'b@example.com'],
      subject: 'partial',
      text: 'x',
    });
    assert.deepEqual(info.accepted, ['a@example.com', 'b@example.com']);
    assert.deepEqual(info.rejected, ['gone@example.com']);
    const [rejection] = info.rejectedErrors ?? [];
    assert.equal(rejection?.responseCode, 550);
    assert.match(rejection.response ?? '', /^550 5\.1\.1 No such user/);
    const [message] = await sink.waitForMessages(1);
    assert.deepEqual(message?.rcptTo, ['a@example.com', 'b@example.com']);
    assert.equal(sink.rcptAttempts('gone@example.com'), 1);
  });

  void it('scripts “451 twice, then accept” per recipient', async () => {
    sink.setRecipientBehaviour('later@example.com', (attempt) =>
      attempt <= 2 ? { code: 451, message: '4.7.1 Greylisted, try again' } : 'accept',
    );
    const mail = { from: 'sender@mailroom.test', to: 'later@example.com', subject: 'grey', text: 'x' };
    await rejectsWithResponseCode(transport(sink).sendMail(mail), 451);
    await rejectsWithResponseCode(transport(sink).sendMail(mail), 451);
    assert.equal(sink.messages.length, 0);
    const info = await transport(sink).sendMail(mail);
    assert.deepEqual(info.accepted, ['later@example.com']);
    assert.equal(sink.rcptAttempts('later@example.com'), 3);
    assert.equal((await sink.waitForMessages(1)).length, 1);
  });

  void it('rejects at end of DATA when told to, without recording the message', async () => {
    sink.setDataBehaviour((attempt) =>
      attempt === 1 ? { code: 554, message: '5.7.1 Message content rejected' } : 'accept',
    );
    const mail = { from: 'sender@mailroom.test', to: 'x@example.com', subject: 'data', text: 'x' };
    await rejectsWithResponseCode(transport(sink).sendMail(mail), 554);
    assert.equal(sink.messages.length, 0);
    await transport(sink).sendMail(mail);
    assert.equal(sink.messages.length, 1);
  });

  void it('refuses messages over the size limit with 552', async () => {
    const mail = { from: 's@mailroom.test', to: 'x@example.com', subject: 'big', text: 'y'.repeat(100_000) };
    await rejectsWithResponseCode(transport(sink).sendMail(mail), 552);
    assert.equal(sink.messages.length, 0);
  });

  void it('times out waitForMessages with the count that did arrive', async () => {
    await transport(sink).sendMail({ from: 's@mailroom.test', to: 'x@example.com', text: 'only one' });
    await assert.rejects(sink.waitForMessages(2, 200), {
      message: `SMTP sink ${sink.address}: expected 2 message(s) within 200 ms, but 1 arrived`,
    });
  });

  void it('resolves a pending waitForMessages when the message arrives later', async () => {
    const waiting = sink.waitForMessages(1, 5000);
    await transport(sink).sendMail({ from: 's@mailroom.test', to: 'late@example.com', text: 'late' });
    const [message] = await waiting;
    assert.deepEqual(message?.rcptTo, ['late@example.com']);
  });
});

void it('can run without STARTTLS and closes promptly with a pooled client attached', async () => {
  const sink = await startSmtpSink({ disabledCommands: ['STARTTLS'] });
  const pool = nodemailer.createTransport({ host: sink.host, port: sink.port, secure: false, pool: true });
  await pool.sendMail({ from: 's@mailroom.test', to: 'x@example.com', text: 'plain' });
  const [message] = await sink.waitForMessages(1);
  assert.equal(message?.secure, false);
  const started = Date.now();
  await sink.close();
  assert.ok(Date.now() - started < 500, `close took ${Date.now() - started} ms`);
  pool.close();
});
