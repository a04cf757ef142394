// latency: one message at a time on an idle appliance (issue 18 item 11): a password-reset
// mail sent alone. 50 sends in a row, each waited for until `delivered` before the next:
// accept (202) → 250 at the sink, and accept → `delivered` in the database. Beside it, Postfix +
// OpenDKIM: 250 at the end of DATA (queued, signed) → 250 at the same sink. The sink runs in
// this process and records when each message arrived (bench/timing-sink.ts); Postfix's
// smtp-sink cannot, and Postfix's own delay= has 10 ms resolution.
import path from 'node:path';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import {
  ensurePostfix,
  fmt,
  fmtSpread,
  log,
  percentile,
  ports,
  privatePostfix,
  request,
  sleep,
  sortNum,
  spread,
  startBench,
} from './lib';
import type { Bench } from './lib';
import { countSigned, ensureOpendkim, startOpendkim } from './opendkim';
import type { TimingSink } from './timing-sink';
import { startTimingSink } from './timing-sink';
import type { Options, Section } from './types';
import http from 'node:http';

const SENDS = 50;
/** Between sends, so that each one finds the appliance idle again. */
const PAUSE_MS = 100;
/** A send that takes longer than this is counted as lost and the scenario goes on. */
const GIVE_UP_MS = 30_000;
const DOMAIN = 'shop.example.com';
const TARGET_P50 = 50;
const TARGET_P99 = 150;

interface Stages {
  /** 202 → 250 at the sink. */
  toSink: number[];
  /** 202 → delivered_at (Postfix: the client's connect → 250 at the sink). */
  toDelivered: number[];
  /** Breakdown from the row: created_at → sent_at (worker: claim, MIME, injection), sent_at → sink. */
  toHandoff: number[];
  handoffToSink: number[];
  signed: number;
}

async function waitForArrival(sink: TimingSink, n: number): Promise<number | undefined> {
  try {
    return (await sink.waitFor(n, GIVE_UP_MS)).receivedAt;
  } catch {
    return undefined;
  }
}

async function mailroomRun(b: Bench, sink: TimingSink): Promise<Stages> {
  const db = new Database(path.join(b.app.dataDir, 'mail.db'), { readonly: true, fileMustExist: true });
  const row = db.prepare('select status, created_at, sent_at, delivered_at from emails where id = ?');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Bearer ${b.apiKey}`, 'content-type': 'application/json' };
  const out: Stages = { toSink: [], toDelivered: [], toHandoff: [], handoffToSink: [], signed: 0 };
  sink.reset();
  try {
    for (let i = 1; i <= SENDS; i++) {
      const body = JSON.stringify({
        from: `Shop <security@${b.domain}>`,
        to: `user${i}@dest.bench.test`,
        subject: `Reset your password (${i})`,
        text: `Your reset link: https://${b.domain}/reset/${i}`,
      });
      const res = await request(agent, new URL('/v1/emails', b.app.baseUrl), 'POST', headers, body);
      const accepted = performance.timeOrigin + performance.now();
      if (res.status !== 202) throw new Error(`send ${i}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      const id = (JSON.parse(res.text) as { id: string }).id;
      const arrived = await waitForArrival(sink, i);
      let r:
        | { status: string; created_at: string; sent_at: string | null; delivered_at: string | null }
        | undefined;
      const deadline = Date.now() + GIVE_UP_MS;
      while (Date.now() < deadline) {
        r = row.get(id) as typeof r;
        if (r?.delivered_at) break;
        await sleep(2);
      }
      if (arrived === undefined || !r?.delivered_at) {
        log(`latency: send ${i} not delivered within ${GIVE_UP_MS} ms`);
        continue;
      }
      out.toSink.push(arrived - accepted);
      out.toDelivered.push(Date.parse(r.delivered_at) - accepted);
      if (r.sent_at) {
        out.toHandoff.push(Date.parse(r.sent_at) - accepted);
        out.handoffToSink.push(arrived - Date.parse(r.sent_at));
      }
      await sleep(PAUSE_MS);
    }
    out.signed = countSigned(sink.messages.map((m) => m.raw));
    return out;
  } finally {
    agent.destroy();
    db.close();
  }
}

async function postfixRun(port: number, sink: TimingSink): Promise<Stages> {
  const out: Stages = { toSink: [], toDelivered: [], toHandoff: [], handoffToSink: [], signed: 0 };
  sink.reset();
  for (let i = 1; i <= SENDS; i++) {
    // A new SMTP session per message, as an application sending one password reset would.
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    const started = performance.timeOrigin + performance.now();
    await transport.sendMail({
      from: `Shop <security@${DOMAIN}>`,
      to: `user${i}@dest.bench.test`,
      subject: `Reset your password (${i})`,
      text: `Your reset link: https://${DOMAIN}/reset/${i}`,
    });
    const queued = performance.timeOrigin + performance.now();
    transport.close();
    const arrived = await waitForArrival(sink, i);
    if (arrived === undefined) {
      log(`latency: postfix message ${i} not relayed within ${GIVE_UP_MS} ms`);
      continue;
    }
    out.toSink.push(arrived - queued);
    out.toDelivered.push(arrived - started);
    await sleep(PAUSE_MS);
  }
  out.signed = countSigned(sink.messages.map((m) => m.raw));
  return out;
}

const p = (xs: number[], q: number): number => percentile(sortNum(xs), q);

export async function latency(opts: Options): Promise<Section> {
  ensurePostfix();
  ensureOpendkim();
  const [pfPort, milterPort] = (await ports(2)) as [number, number];
  const sink = await startTimingSink();
  const dkim = await startOpendkim('opendkim-latency', milterPort, DOMAIN);
  const pf = privatePostfix('postfix-dkim-latency', pfPort, {
    relayhost: `[127.0.0.1]:${sink.port}`,
    ...dkim.postfixSettings,
  });
  const ours: Stages[] = [];
  const theirs: Stages[] = [];
  try {
    pf.start();
    await sleep(1000);
    for (let r = 0; r < opts.repeats; r++) {
      const t = await postfixRun(pfPort, sink);
      theirs.push(t);
      log(
        `latency postfix+opendkim #${r + 1}: ${t.toSink.length}/${SENDS}, p50 ${fmt(p(t.toSink, 50), 0)} ms, p99 ${fmt(p(t.toSink, 99), 0)} ms, signed ${t.signed}`,
      );
      const b = await startBench({ env: { SMTP_RELAY: sink.address } });
      try {
        await sleep(3000);
        const m = await mailroomRun(b, sink);
        ours.push(m);
        log(
          `latency mailroom #${r + 1}: ${m.toSink.length}/${SENDS}, →sink p50 ${fmt(p(m.toSink, 50), 0)} ms, p99 ${fmt(p(m.toSink, 99), 0)} ms; →delivered p50 ${fmt(p(m.toDelivered, 50), 0)} ms`,
        );
      } finally {
        await b.stop();
      }
    }
  } finally {
    pf.stop();
    await dkim.stop();
    await sink.close();
  }
  const fig = (runs: Stages[], k: keyof Omit<Stages, 'signed'>, q: number) =>
    spread(runs.map((x) => p(x[k], q)));
  const sinkP50 = fig(ours, 'toSink', 50);
  const sinkP99 = fig(ours, 'toSink', 99);
  const row = (label: string, runs: Stages[], k: keyof Omit<Stages, 'signed'>, target = ''): string =>
    `| ${label} | ${fmtSpread(fig(runs, k, 50), 0)} | ${fmtSpread(fig(runs, k, 99), 0)} | ${fmtSpread(spread(runs.map((x) => Math.max(...x[k]))), 0)} | ${target} |`;
  return {
    id: 'latency',
    title: 'latency (one message at a time)',
    figures: { p50: sinkP50, p99: sinkP99, postfixP50: fig(theirs, 'toSink', 50) },
    lines: [
      `${SENDS} messages one at a time per repeat, ${opts.repeats} repeats, each waited for until delivered, then ${PAUSE_MS} ms of pause. The sink is bench/timing-sink.ts in the bench process (greets at once, PIPELINING, no STARTTLS), which records when each message's DATA ended, on the same clock as the client (smtp-server, the tests' sink, holds each greeting 100 ms). Mailroom: a fresh idle appliance per repeat, POST /v1/emails (a short text password reset) over one keep-alive connection; times from the 202 received. \`delivered\` = the email's \`delivered_at\` (read from the SQLite file). Postfix + OpenDKIM: a private Postfix with a private OpenDKIM milter (RSA-2048, relaxed/relaxed), one SMTP session per message; times from the 250 at the end of DATA (queued and signed).`,
      '',
      '| figure (ms) | p50 | p99 | max | target |',
      '|---|---|---|---|---|',
      row(
        'Mailroom: 202 → 250 at the sink',
        ours,
        'toSink',
        `p50 ≤ ${TARGET_P50}, p99 ≤ ${TARGET_P99}: ${sinkP50.median <= TARGET_P50 && sinkP99.median <= TARGET_P99 ? 'met' : 'missed'}`,
      ),
      row('Mailroom: 202 → `delivered`', ours, 'toDelivered'),
      row('— of which 202 → handed to the MTA (`sent_at`: claim, MIME, injection)', ours, 'toHandoff'),
      row(
        '— of which handed to the MTA → 250 at the sink (Haraka: queue file, DKIM, relay)',
        ours,
        'handoffToSink',
      ),
      row('Postfix + OpenDKIM: 250 after DATA → 250 at the sink', theirs, 'toSink'),
      row(
        'Postfix + OpenDKIM: connect → 250 at the sink (includes its signing, done before its 250)',
        theirs,
        'toDelivered',
      ),
      '',
      `- messages carrying a DKIM-Signature at the sink: Mailroom ${ours.map((x) => x.signed).join(', ')}; Postfix + OpenDKIM ${theirs.map((x) => x.signed).join(', ')} (of ${SENDS} per repeat).`,
    ],
  };
}
