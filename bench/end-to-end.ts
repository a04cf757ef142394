// end-to-end: N messages accepted through the API and relayed by the MTA (SMTP_RELAY) to
// Postfix's smtp-sink; baselines: a private Postfix relaying N messages injected by
// smtp-source to the same sink, and the same with a private OpenDKIM signing them (issue 18
// item 10: the stack a self-hoster would assemble instead signs too). Also the memory scenario: idle RSS of the whole appliance
// after start, and its peak during the run.
import type { Appliance } from '../test/helpers/appliance';
import type { Bench } from './lib';
import {
  applianceRss,
  childPids,
  cpuMs,
  ensurePostfix,
  fmt,
  fmtSpread,
  html5k,
  log,
  percentile,
  ports,
  privatePostfix,
  runLoad,
  sleep,
  smtpSource,
  sortNum,
  spread,
  startBench,
  startSmtpSink,
  stopChild,
} from './lib';
import { ensureOpendkim, SAMPLE_SENDER, sampleRoute, signedSample, startOpendkim } from './opendkim';
import type { EmailStore } from './pg-backend';
import { sqliteEmailStore } from './pg-backend';
import { startTimingSink } from './timing-sink';
import type { Options, Section } from './types';

export const CONNECTIONS = 32;
/** Messages per repeat checked for a DKIM-Signature after the Postfix + OpenDKIM run. */
const SIGNED_SAMPLE = 10;

export interface Run {
  rate: number;
  p50: number;
  p99: number;
  delivered: number;
  elapsedMs: number;
  /** Mailroom only: CPU (user + system) per delivered message by process, from /proc, load start → last delivery. */
  cpuPerMessage?: Record<string, number>;
}

/** CPU ms per message of each process between two readings, and their sum as `total`. */
function perMessage(
  before: Record<string, number>,
  after: Record<string, number>,
  messages: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, ms] of Object.entries(after)) out[name] = (ms - (before[name] ?? 0)) / messages;
  out.total = Object.values(out).reduce((a, x) => a + x, 0);
  return out;
}

export interface MailroomRunOptions {
  /** Where the emails are read (default: the appliance's SQLite file). */
  readonly store?: EmailStore;
  /** Nodes sharing one database (default: the bench's appliance): the load is spread over their APIs, CPU and RSS summed. */
  readonly nodes?: readonly Appliance[];
}

export async function mailroomRun(
  b: Bench,
  n: number,
  timeoutMs: number,
  peak: Record<string, number>,
  options: MailroomRunOptions = {},
): Promise<Run> {
  const nodes = options.nodes ?? [b.app];
  const db = options.store ?? sqliteEmailStore(b.app.dataDir);
  const acceptedAt = new Map<string, number>();
  const headers = { authorization: `Bearer ${b.apiKey}`, 'content-type': 'application/json' };
  const t0 = Date.now();
  const since = new Date(t0 - 1).toISOString();
  const pids = nodes.map((node) => childPids(node));
  const cpuAt = (): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const byName of pids)
      for (const [name, pid] of Object.entries(byName)) out[name] = (out[name] ?? 0) + cpuMs(pid);
    return out;
  };
  const cpu0 = cpuAt();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const now: Record<string, number> = {};
      for (const node of nodes)
        for (const [k, v] of Object.entries(applianceRss(node))) now[k] = (now[k] ?? 0) + v;
      for (const [k, v] of Object.entries(now)) peak[k] = Math.max(peak[k] ?? 0, v);
      await sleep(250);
    }
  })();
  try {
    const load = await runLoad({
      baseUrl: b.app.baseUrl,
      baseUrls: nodes.map((node) => node.baseUrl),
      connections: CONNECTIONS,
      budget: n,
      okStatus: 202,
      make: (seq) => ({
        method: 'POST',
        path: '/v1/emails',
        headers,
        body: JSON.stringify({
          from: `Shop <orders@${b.domain}>`,
          to: `buyer${seq}@dest.bench.test`,
          subject: `Your order ${seq}`,
          html: html5k(seq),
        }),
      }),
      onOk: (_seq, text, _t0, t1) => {
        acceptedAt.set((JSON.parse(text) as { id: string }).id, performance.timeOrigin + t1);
      },
    });
    log(`end-to-end: ${load.ok} accepted in ${fmt(load.elapsedMs, 0)} ms (${JSON.stringify(load.statuses)})`);
    const deadline = Date.now() + timeoutMs;
    let done = 0;
    while (Date.now() < deadline) {
      done = await db.finished(since);
      if (done >= load.ok) break;
      await sleep(200);
    }
    const cpu1 = cpuAt();
    const rows = await db.delivered(since);
    const lat: number[] = [];
    let last = t0;
    for (const r of rows) {
      const d = Date.parse(r.delivered_at);
      last = Math.max(last, d);
      const a = acceptedAt.get(r.id);
      if (a !== undefined) lat.push(d - a);
    }
    const s = sortNum(lat);
    return {
      rate: rows.length / ((last - t0) / 1000),
      p50: percentile(s, 50),
      p99: percentile(s, 99),
      delivered: rows.length,
      elapsedMs: last - t0,
      cpuPerMessage: perMessage(cpu0, cpu1, rows.length),
    };
  } finally {
    sampling = false;
    await sampler;
    await db.close();
  }
}

async function postfixRun(pf: ReturnType<typeof privatePostfix>, n: number, timeoutMs: number): Promise<Run> {
  const sentBefore = pf.logLines().filter((l) => l.includes('status=sent')).length;
  const t0 = Date.now();
  const src = await smtpSource({
    port: pf.port,
    sessions: CONNECTIONS,
    messages: n,
    bytes: 5200,
    from: 'orders@shop.example.com',
    to: 'buyer@dest.bench.test',
  });
  if (src.code !== 0) log(`smtp-source exited ${src.code}: ${src.stderr.slice(0, 300)}`);
  const deadline = Date.now() + timeoutMs;
  let sent: string[] = [];
  while (Date.now() < deadline) {
    sent = pf
      .logLines()
      .filter((l) => l.includes('status=sent'))
      .slice(sentBefore);
    if (sent.length >= n) break;
    await sleep(50);
  }
  const t1 = Date.now();
  // delay= is Postfix's own arrival-to-delivery time per message (10 ms resolution).
  const lat = sortNum(sent.map((l) => Number(/ delay=([\d.]+)/.exec(l)?.[1] ?? NaN) * 1000));
  return {
    rate: sent.length / ((t1 - t0) / 1000),
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    delivered: sent.length,
    elapsedMs: t1 - t0,
  };
}

export async function endToEnd(opts: Options): Promise<{ e2e: Section; memory: Section }> {
  ensurePostfix();
  ensureOpendkim();
  const n = opts.messages;
  const timeoutMs = Math.max(180_000, n * 60);
  const [sinkPort, pfPort, dkimPfPort, milterPort] = (await ports(4)) as [number, number, number, number];
  const sink = startSmtpSink(sinkPort);
  const sampleSink = await startTimingSink();
  const dkim = await startOpendkim('opendkim-relay', milterPort, 'shop.example.com');
  const pf = privatePostfix('postfix-relay', pfPort, { relayhost: `[127.0.0.1]:${sinkPort}` });
  const pfDkim = privatePostfix('postfix-dkim-relay', dkimPfPort, {
    relayhost: `[127.0.0.1]:${sinkPort}`,
    ...dkim.postfixSettings,
    ...sampleRoute(sampleSink.port),
  });
  const ours: Run[] = [];
  /** The appliance with OUTBOUND_SENDER=worker. */
  const direct: Run[] = [];
  const theirs: Run[] = [];
  const signing: Run[] = [];
  const signed: number[] = [];
  const idle: Record<string, number[]> = {};
  const peaks: Record<string, number[]> = {};
  try {
    pf.start();
    pfDkim.start();
    await sleep(1000);
    for (let r = 0; r < opts.repeats; r++) {
      // Postfix, Postfix + OpenDKIM, then the appliance, alternating on the same sink.
      const p = await postfixRun(pf, n, timeoutMs);
      theirs.push(p);
      log(`postfix #${r + 1}: ${fmt(p.rate)} delivered/s, p50 ${fmt(p.p50, 0)} ms, p99 ${fmt(p.p99, 0)} ms`);
      const d = await postfixRun(pfDkim, n, timeoutMs);
      signing.push(d);
      signed.push(await signedSample(dkimPfPort, sampleSink, SIGNED_SAMPLE));
      log(
        `postfix+opendkim #${r + 1}: ${fmt(d.rate)} delivered/s, p50 ${fmt(d.p50, 0)} ms, p99 ${fmt(d.p99, 0)} ms; ${signed.at(-1)}/${SIGNED_SAMPLE} of a sample signed`,
      );
      const b = await startBench({ env: { SMTP_RELAY: `127.0.0.1:${sinkPort}`, OUTBOUND_SENDER: 'haraka' } });
      try {
        await sleep(5000);
        for (const [k, v] of Object.entries(applianceRss(b.app))) (idle[k] ??= []).push(v);
        const peak: Record<string, number> = {};
        const m = await mailroomRun(b, n, timeoutMs, peak);
        ours.push(m);
        for (const [k, v] of Object.entries(peak)) (peaks[k] ??= []).push(v);
        log(
          `mailroom #${r + 1}: ${m.delivered}/${n} delivered, ${fmt(m.rate)} delivered/s, p50 ${fmt(m.p50, 0)} ms, p99 ${fmt(m.p99, 0)} ms, peak RSS ${fmt(peak.total ?? NaN, 0)} MiB`,
        );
      } finally {
        await b.stop();
      }
      // The same load through the worker's own sender (OUTBOUND_SENDER=worker, issue 31): no
      // Haraka outbound queue, no second SMTP session.
      const w = await startBench({ env: { SMTP_RELAY: `127.0.0.1:${sinkPort}`, OUTBOUND_SENDER: 'worker' } });
      try {
        await sleep(5000);
        const m = await mailroomRun(w, n, timeoutMs, {});
        direct.push(m);
        log(
          `mailroom, worker sender #${r + 1}: ${m.delivered}/${n} delivered, ${fmt(m.rate)} delivered/s, p50 ${fmt(m.p50, 0)} ms, p99 ${fmt(m.p99, 0)} ms, CPU ${fmt(m.cpuPerMessage?.total ?? NaN, 2)} ms/message`,
        );
      } finally {
        await w.stop();
      }
    }
  } finally {
    pf.stop();
    pfDkim.stop();
    await dkim.stop();
    await sampleSink.close();
    await stopChild(sink);
  }
  const rOurs = spread(ours.map((x) => x.rate));
  const rTheirs = spread(theirs.map((x) => x.rate));
  const ratios = spread(ours.map((x, i) => x.rate / (theirs[i]?.rate ?? NaN)));
  const rSigning = spread(signing.map((x) => x.rate));
  const signingRatios = spread(ours.map((x, i) => x.rate / (signing[i]?.rate ?? NaN)));
  const incomplete = ours.filter((x) => x.delivered < n).length;
  const cpuNames = ['api', 'worker', 'mta', 'total'];
  const cpu = Object.fromEntries(
    cpuNames.map((name) => [name, spread(ours.map((x) => x.cpuPerMessage?.[name] ?? NaN))]),
  );
  const per = (runs: readonly Run[], of: (x: Run) => number, base: readonly Run[]) =>
    fmtSpread(spread(runs.map((x, i) => of(x) / (base[i] ? of(base[i]) : NaN))), 2);
  const directCpu = Object.fromEntries(
    cpuNames.map((name) => [name, spread(direct.map((x) => x.cpuPerMessage?.[name] ?? NaN))]),
  );
  const directLines = [
    '',
    `The same load with \`OUTBOUND_SENDER=worker\` (the worker delivers to the relay itself: no Haraka outbound queue, no loopback hand-off), a fresh appliance per repeat, right after the run above; ratios per repeat against the runs above.`,
    '',
    '| figure | Mailroom, worker sender | ratio to Mailroom (Haraka outbound) | ratio to Postfix | ratio to Postfix + OpenDKIM |',
    '|---|---|---|---|---|',
    `| delivered/s | ${fmtSpread(spread(direct.map((x) => x.rate)))} | ${per(direct, (x) => x.rate, ours)} | ${per(direct, (x) => x.rate, theirs)} | ${per(direct, (x) => x.rate, signing)} |`,
    ...(['p50', 'p99'] as const).map(
      (q) =>
        `| ${q} accept→delivered (ms) | ${fmtSpread(spread(direct.map((x) => x[q])), 0)} | ${per(direct, (x) => x[q], ours)} | ${per(direct, (x) => x[q], theirs)} | ${per(direct, (x) => x[q], signing)} |`,
    ),
    ...cpuNames.map(
      (name) =>
        `| CPU per delivered message, ${name === 'total' ? 'api + worker + mta' : name} (ms) | ${fmtSpread(directCpu[name]!, 2)} | ${per(direct, (x) => x.cpuPerMessage?.[name] ?? NaN, ours)} | | |`,
    ),
  ];
  const e2e: Section = {
    id: 'end-to-end',
    title: 'end-to-end',
    figures: {
      ratio: ratios,
      signingRatio: signingRatios,
      cpuTotal: cpu.total!,
      cpuApi: cpu.api!,
      cpuWorker: cpu.worker!,
      cpuMta: cpu.mta!,
      directRatio: spread(direct.map((x, i) => x.rate / (theirs[i]?.rate ?? NaN))),
      directSigningRatio: spread(direct.map((x, i) => x.rate / (signing[i]?.rate ?? NaN))),
      directCpuTotal: directCpu.total!,
    },
    lines: [
      `${n.toLocaleString('en-US')} messages per repeat${opts.full ? '' : ' (reduced from the issue’s 10,000 to keep the default run short; `--full` runs 10,000)'}, ${opts.repeats} repeats, both sides relaying to the same Postfix \`smtp-sink\` on 127.0.0.1. Mailroom: ${CONNECTIONS} keep-alive API clients POST /v1/emails (1 recipient, ~5 KB html), fresh appliance (api + worker + mta with Haraka inside) per repeat, SMTP_RELAY to the sink; delivered = the email's status \`delivered\` (the worker recorded the relay's 250), time = its \`delivered_at\`; latency = 202 received → \`delivered_at\`. Postfix: private instance (default tuning), \`smtp-source -d -s ${CONNECTIONS} -l 5200\`; delivered = \`status=sent\` lines in its log, latency = Postfix's \`delay=\` (arrival → relay 250). Postfix + OpenDKIM: a second private Postfix, the same but with \`smtpd_milters\`/\`non_smtpd_milters\` on a private OpenDKIM (Debian's \`opendkim\`, loopback milter port, a fresh RSA-2048 key per run, relaxed/relaxed, \`Mode s\`, \`milter_default_action = tempfail\`). CPU per delivered message: user + system time of each Mailroom process from \`/proc/<pid>/stat\` between the start of the load and the last delivery, divided by the messages delivered (the api's share is the accepting of the same messages; the load generator is not counted).`,
      '',
      '| figure | Mailroom | Postfix | ratio (Mailroom/Postfix, per repeat) | Postfix + OpenDKIM | ratio (Mailroom/Postfix + OpenDKIM) | target |',
      '|---|---|---|---|---|---|---|',
      `| delivered/s | ${fmtSpread(rOurs)} | ${fmtSpread(rTheirs)} | ${fmtSpread(ratios, 2)} | ${fmtSpread(rSigning)} | ${fmtSpread(signingRatios, 2)} | ≥ 1.0× Postfix ${ratios.median >= 1 ? '(met)' : `(missed by ${fmt((1 - ratios.median) * 100, 0)} %)`} |`,
      ...(['p50', 'p99'] as const).map(
        (q) =>
          `| ${q} accept→delivered (ms) | ${fmtSpread(spread(ours.map((x) => x[q])), 0)} | ${fmtSpread(spread(theirs.map((x) => x[q])), 0)} | ${fmtSpread(spread(ours.map((x, i) => x[q] / (theirs[i]?.[q] ?? NaN))), 2)} | ${fmtSpread(spread(signing.map((x) => x[q])), 0)} | ${fmtSpread(spread(ours.map((x, i) => x[q] / (signing[i]?.[q] ?? NaN))), 2)} | |`,
      ),
      `| wall time for all N (s) | ${fmtSpread(spread(ours.map((x) => x.elapsedMs / 1000)))} | ${fmtSpread(spread(theirs.map((x) => x.elapsedMs / 1000)))} | | ${fmtSpread(spread(signing.map((x) => x.elapsedMs / 1000)))} | | |`,
      ...cpuNames.map(
        (name) =>
          `| CPU per delivered message, ${name === 'total' ? 'api + worker + mta' : name} (ms, user + system) | ${fmtSpread(cpu[name]!, 2)} | | | | | |`,
      ),
      '',
      incomplete > 0
        ? `- **${incomplete} Mailroom repeat(s) did not deliver all ${n} within ${timeoutMs / 1000} s**; rates count what was delivered.`
        : `- every repeat delivered all ${n} messages on every side.`,
      `- Postfix + OpenDKIM signed ${signed.join(', ')} of a sample of ${SIGNED_SAMPLE} per repeat (sent after its run from ${SAMPLE_SENDER} through the same Postfix and milter, relayed to a sink in the bench process that keeps the messages; smtp-sink keeps nothing).`,
      ...directLines,
    ],
  };
  const idleTotal = spread(idle.total ?? []);
  const peak = spread(peaks.total ?? []);
  const memory: Section = {
    id: 'memory',
    title: 'memory',
    figures: { idle: idleTotal, peak },
    lines: [
      `RSS (VmRSS from /proc) of the supervisor and every descendant (api, worker, and the mta, which runs Haraka in-process), measured 5 s after each fresh start of the end-to-end repeats (idle), and sampled every 250 ms during the end-to-end run (peak). ${opts.repeats} repeats.`,
      '',
      '| process | idle RSS (MiB) median (min – max) | peak RSS during end-to-end (MiB) |',
      '|---|---|---|',
      ...Object.entries(idle).map(
        ([k, v]) => `| ${k} | ${fmtSpread(spread(v))} | ${fmtSpread(spread(peaks[k] ?? []))} |`,
      ),
      '',
      `- idle total: ${fmtSpread(idleTotal)} MiB of summed RSS (the memory targets are judged on PSS, in the standalone memory section)`,
      `- peak total during end-to-end (each process's own peak is in the table; they need not coincide): ${fmtSpread(peak)} MiB`,
    ],
  };
  return { e2e, memory };
}
