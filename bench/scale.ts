// scale: read latency at 10k, 100k and 1M stored emails, seeded directly into the SQLite file
// created by the real migrations (the appliance's own start), one transaction per 50k rows.
// email_daily_counts is kept by the migrations' triggers; ids are time-ordered (sortableId).
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sortableId } from '../src/shared/ids';
import type { Bench } from './lib';
import { fmt, fmtSpread, log, percentile, request, sortNum, spread, startBench } from './lib';
import type { Options, Section } from './types';

const STATUSES: [string, number][] = [
  ['delivered', 0.85],
  ['bounced', 0.05],
  ['sent', 0.04],
  ['failed', 0.02],
  ['queued', 0.02],
  ['complained', 0.01],
  ['cancelled', 0.01],
];
const ADDRESSES = 5000;
const CHUNK = 50_000;
const SPAN_MS = 30 * 86_400_000;

function statusFor(i: number): string {
  const x = ((i * 2654435761) % 1000) / 1000;
  let acc = 0;
  for (const [s, p] of STATUSES) {
    acc += p;
    if (x < acc) return s;
  }
  return 'delivered';
}

class Seeder {
  private seeded = 0;
  readonly sampleIds: string[] = [];
  constructor(
    private readonly db: Database.Database,
    private readonly b: Bench,
    private readonly otherDomainId: string,
    private readonly apiKeyId: string | null,
    private readonly total: number,
  ) {}

  /** Seeds rows `seeded … target-1`, times spread evenly over the last 30 days in id order. */
  seedTo(target: number): number {
    const t0 = performance.now();
    const start = Date.now() - SPAN_MS - 60_000;
    const email = this.db
      .prepare(`insert into emails (id, user_id, domain_id, api_key_id, source, from_address,
      from_header, subject, html, text, message_id, size_bytes, status, attempts, smtp_response, created_at,
      updated_at, sent_at, delivered_at) values (?, ?, ?, ?, 'api', ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`);
    const rcpt = this.db
      .prepare(`insert into email_recipients (id, email_id, user_id, address, name, type, status,
      smtp_response, updated_at) values (?, ?, ?, ?, null, 'to', ?, ?, ?)`);
    const event = this.db.prepare(`insert into email_events (id, email_id, user_id, recipient, type, message,
      created_at) values (?, ?, ?, null, 'queued', null, ?)`);
    const userId = this.userId();
    while (this.seeded < target) {
      const end = Math.min(target, this.seeded + CHUNK);
      this.db.transaction(() => {
        for (let i = this.seeded; i < end; i++) {
          // Times are laid out for the final size, so every step's rows stay older than the next's.
          const t = start + Math.floor((i / this.total) * SPAN_MS);
          const iso = new Date(t).toISOString();
          const id = `email_${sortableId(t)}`;
          const status = statusFor(i);
          const domainId = i % 10 === 9 ? this.otherDomainId : this.b.domainId;
          const domain = i % 10 === 9 ? 'other.example.com' : this.b.domain;
          const html = `<p>Order ${i}: thank you for your purchase.</p>`;
          email.run(
            id,
            userId,
            domainId,
            this.apiKeyId,
            `orders@${domain}`,
            `Shop <orders@${domain}>`,
            `Your order ${i}`,
            html,
            null,
            `<${id}@${domain}>`,
            html.length,
            status,
            status === 'delivered' ? '250 2.0.0 Ok' : null,
            iso,
            iso,
            status === 'queued' ? null : iso,
            status === 'delivered' ? iso : null,
          );
          rcpt.run(
            `rcpt_${sortableId(t)}`,
            id,
            userId,
            `buyer${i % ADDRESSES}@dest.bench.test`,
            status,
            null,
            iso,
          );
          event.run(`evt_${sortableId(t)}`, id, userId, iso);
          if (i % Math.max(1, Math.floor(target / 500)) === 7) this.sampleIds.push(id);
        }
      })();
      this.seeded = end;
    }
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return performance.now() - t0;
  }

  private userId(): string {
    return (this.db.prepare('select id from users limit 1').get() as { id: string }).id;
  }
}

interface Query {
  name: string;
  path: (sample: () => string) => string;
}

export async function scale(opts: Options): Promise<Section> {
  const sizes = opts.scaleSizes;
  const total = sizes[sizes.length - 1] ?? 10_000;
  // p99 of 200 samples is their second-worst value: one GC pause or scheduler hiccup decided
  // the ratio. 1,000 samples make it the tenth-worst.
  const requests = 1000;
  const warmup = 50;
  const b = await startBench({ processes: ['api'] });
  const other = await b.app.api.post<{ id: string }>('/v1/domains', {
    token: b.token,
    body: { domain: 'other.example.com' },
  });
  if (other.status !== 201) throw new Error(`add second domain: ${other.status} ${other.text}`);
  const db = new Database(path.join(b.app.dataDir, 'mail.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  const key = db.prepare('select id from api_keys limit 1').get() as { id: string } | undefined;
  const seeder = new Seeder(db, b, other.body.id, key?.id ?? null, total);
  const queries: Query[] = [
    { name: 'GET /v1/emails', path: () => '/v1/emails' },
    { name: 'GET /v1/emails?status=delivered', path: () => '/v1/emails?status=delivered' },
    { name: 'GET /v1/emails?status=bounced', path: () => '/v1/emails?status=bounced' },
    { name: 'GET /v1/emails?recipient=…', path: () => '/v1/emails?recipient=buyer42%40dest.bench.test' },
    { name: 'GET /v1/emails?domainId=… (10 % of mail)', path: () => `/v1/emails?domainId=${other.body.id}` },
    {
      name: 'GET /v1/emails?status=bounced&domainId=…',
      path: () => `/v1/emails?status=bounced&domainId=${other.body.id}`,
    },
    { name: 'GET /v1/emails/{id}', path: (sample) => `/v1/emails/${sample()}` },
    { name: 'GET /v1/stats/overview', path: () => '/v1/stats/overview' },
    { name: 'GET /v1/stats/overview?days=365', path: () => '/v1/stats/overview?days=365' },
  ];
  // results[query][size] = { p50s, p99s }
  const results = new Map<string, Map<number, { p50: number[]; p99: number[] }>>();
  const seedNotes: string[] = [];
  let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const size of sizes) {
      const ms = seeder.seedTo(size);
      seedNotes.push(`seeded to ${size.toLocaleString('en-US')} in ${fmt(ms / 1000)} s`);
      // Seeding can outlast the server's keep-alive timeout: start from a fresh connection.
      agent.destroy();
      agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      log(`scale: ${size} emails seeded (${fmt(ms / 1000)} s)`);
      let k = 0;
      const sample = (): string => seeder.sampleIds[(k++ * 7919) % seeder.sampleIds.length] ?? '';
      for (const q of queries) {
        const perSize = results.get(q.name) ?? new Map<number, { p50: number[]; p99: number[] }>();
        results.set(q.name, perSize);
        const cell = { p50: [] as number[], p99: [] as number[] };
        perSize.set(size, cell);
        for (let r = 0; r < opts.repeats; r++) {
          const lat: number[] = [];
          for (let i = 0; i < requests + warmup; i++) {
            const t0 = performance.now();
            const res = await request(agent, new URL(q.path(sample), b.app.baseUrl), 'GET', {
              authorization: `Bearer ${b.apiKey}`,
            });
            if (res.status !== 200) throw new Error(`${q.name}: ${res.status} ${res.text.slice(0, 200)}`);
            if (i >= warmup) lat.push(performance.now() - t0);
          }
          const s = sortNum(lat);
          cell.p50.push(percentile(s, 50));
          cell.p99.push(percentile(s, 99));
        }
        log(
          `scale ${size} ${q.name}: p50 ${fmt(spread(cell.p50).median, 2)} ms p99 ${fmt(spread(cell.p99).median, 2)} ms`,
        );
      }
    }
  } finally {
    agent.destroy();
    db.close();
    await b.stop();
  }

  const first = sizes[0] ?? 0;
  const last = sizes[sizes.length - 1] ?? 0;
  const lines = [
    `Seeded directly into the appliance's SQLite file (real migrations, triggers on): one recipient and one \`queued\` event per email, 85 % delivered / 5 % bounced / …, 5,000 distinct recipients, 10 % of mail on a second domain, created over the last 30 days, small html (~50 bytes, not 5 KB, to keep the file small). api process only; ${requests} sequential requests per repeat (after ${warmup} warm-up), one keep-alive connection, ${opts.repeats} repeats; each cell is p50 / p99 in ms as median (min – max) over repeats. No ANALYZE is run (the appliance does not run it either). ${seedNotes.join('; ')}.`,
    '',
    `| query | ${sizes.map((s) => `p50 @ ${s.toLocaleString('en-US')}`).join(' | ')} | ${sizes.map((s) => `p99 @ ${s.toLocaleString('en-US')}`).join(' | ')} | p99 ratio ${last.toLocaleString('en-US')}/${first.toLocaleString('en-US')} (target ≤ 2×) |`,
    `|---|${sizes.map(() => '---|').join('')}${sizes.map(() => '---|').join('')}---|`,
  ];
  const figures: Record<string, ReturnType<typeof spread>> = {};
  for (const [name, perSize] of results) {
    const p50 = sizes.map((s) => fmtSpread(spread(perSize.get(s)?.p50 ?? []), 2));
    const p99 = sizes.map((s) => fmtSpread(spread(perSize.get(s)?.p99 ?? []), 2));
    const a = perSize.get(first)?.p99 ?? [];
    const z = perSize.get(last)?.p99 ?? [];
    const ratio = spread(z.map((x, i) => x / (a[i] ?? NaN)));
    figures[name] = ratio;
    const verdict = ratio.median <= 2 ? 'met' : `**missed (${fmt(ratio.median, 1)}×)**`;
    lines.push(`| ${name} | ${p50.join(' | ')} | ${p99.join(' | ')} | ${fmtSpread(ratio, 2)} ${verdict} |`);
  }
  return { id: 'scale', title: 'scale', lines, figures };
}
