// inbound: smtp-source with 20 sessions into our MX (SMTP_PORT) for a receiving domain, until
// every message is stored (rows in inbound_messages); baseline: a private Postfix accepting
// the same load into a maildir (virtual delivery, one static mailbox).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { publish } from '../test/helpers/dns-fixtures';
import type { PublishedRecord } from '../test/helpers/dns-fixtures';
import {
  ensurePostfix,
  fmt,
  fmtSpread,
  log,
  ports,
  privatePostfix,
  sleep,
  smtpSource,
  spread,
  startBench,
  WORK,
} from './lib';
import type { Spread } from './lib';
import type { Options, Section } from './types';

const SESSIONS = 20;
const BYTES = 5200;

function countMaildir(dir: string): number {
  let n = 0;
  for (const sub of ['new', 'cur']) {
    try {
      n += fs.readdirSync(path.join(dir, sub)).length;
    } catch {
      /* not yet created */
    }
  }
  return n;
}

/** The RCPT reply code of a one-recipient SMTP dialogue (0 on a connection error). */
function rcptCode(port: number, to: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const script = ['EHLO probe.bench.test', 'MAIL FROM:<probe@client.bench.test>', `RCPT TO:<${to}>`];
    let buf = '';
    let step = 0;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (line[3] === '-') continue; // continuation of a multi-line reply
        if (step === script.length) {
          resolve(Number(line.slice(0, 3)));
          socket.end('QUIT\r\n');
          return;
        }
        socket.write(`${script[step++]}\r\n`);
      }
    });
    socket.on('error', () => resolve(0));
  });
}

async function waitCount(count: () => number, target: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let c = count();
  while (c < target && Date.now() < deadline) {
    await sleep(50);
    c = count();
  }
  return c;
}

export async function inbound(opts: Options): Promise<Section> {
  ensurePostfix();
  const n = opts.messages;
  const timeoutMs = Math.max(120_000, n * 30);
  const pfRates: number[] = [];
  const ourRates: number[] = [];
  const acceptRates: number[] = [];
  const notes: string[] = [];

  // Baseline: Postfix into a maildir owned by nobody.
  const [pfPort] = (await ports(1)) as [number];
  const box = path.join(WORK, 'postfix-inbound-mail');
  fs.rmSync(box, { recursive: true, force: true });
  fs.mkdirSync(box, { recursive: true });
  fs.chownSync(box, 65534, 65534);
  const pf = privatePostfix('postfix-inbound', pfPort, {
    virtual_mailbox_domains: 'inbox.shop.example.com',
    virtual_mailbox_base: box,
    virtual_mailbox_maps: 'static:inbox/',
    virtual_uid_maps: 'static:65534',
    virtual_gid_maps: 'static:65534',
    virtual_minimum_uid: '100',
  });
  const postfixRepeat = async (r: number): Promise<void> => {
    const before = countMaildir(path.join(box, 'inbox'));
    const t0 = Date.now();
    const src = await smtpSource({
      port: pfPort,
      sessions: SESSIONS,
      messages: n,
      bytes: BYTES,
      from: 'customer@client.bench.test',
      to: 'support@inbox.shop.example.com',
    });
    if (src.code !== 0) log(`smtp-source (postfix) exited ${src.code}: ${src.stderr.slice(0, 300)}`);
    const got =
      (await waitCount(() => countMaildir(path.join(box, 'inbox')), before + n, timeoutMs)) - before;
    const rate = got / ((Date.now() - t0) / 1000);
    pfRates.push(rate);
    log(`inbound postfix #${r + 1}: ${got}/${n} stored, ${fmt(rate)} stored/s`);
  };

  // Mailroom: receiving enabled on the domain, smtp-source into SMTP_PORT. Both sides stay up
  // for the whole scenario and their repeats alternate (Postfix, Mailroom, Postfix, …), so a
  // change of the machine's load during the run falls on both rather than on one side.
  let runnable = 'yes';
  pf.start();
  const b = await startBench({ processes: ['api', 'worker', 'mta'] });
  let db: Database.Database | undefined;
  try {
    const patched = await b.app.api.patch<{ records?: PublishedRecord[] }>(`/v1/domains/${b.domainId}`, {
      token: b.token,
      body: { receiveEnabled: true },
    });
    if (patched.status !== 200)
      runnable = `PATCH receiveEnabled answered ${patched.status} ${patched.text.slice(0, 200)}`;
    else {
      // Only the new MX record: the TXT ones are published already (publishing again would double them).
      if (patched.body.records)
        publish(
          b.dns,
          patched.body.records.filter((r) => r.type === 'MX'),
        );
      await b.app.api.post(`/v1/domains/${b.domainId}/verify`, { token: b.token });
      // The MX reloads its view of the receiving domains every 2 s: wait until it accepts the address.
      const deadline = Date.now() + 15_000;
      let code = 0;
      while (
        Date.now() < deadline &&
        (code = await rcptCode(b.app.ports.smtp, `support@inbox.${b.domain}`)) !== 250
      )
        await sleep(200);
      if (code !== 250) runnable = `the MX still answers ${code} to RCPT after 15 s`;
    }
    const dbFile = path.join(b.app.dataDir, 'mail.db');
    db = new Database(dbFile, { readonly: true, fileMustExist: true });
    const hasTable = db
      .prepare(`select 1 from sqlite_master where type='table' and name='inbound_messages'`)
      .get();
    if (!hasTable) runnable = 'no `inbound_messages` table in the schema';
    const count = hasTable ? db.prepare('select count(*) as c from inbound_messages') : undefined;
    const stored = (): number => (count?.get() as { c: number } | undefined)?.c ?? 0;
    for (let r = 0; r < opts.repeats; r++) {
      await postfixRepeat(r);
      if (runnable !== 'yes') continue;
      const before = stored();
      const t0 = Date.now();
      const src = await smtpSource({
        port: b.app.ports.smtp,
        sessions: SESSIONS,
        messages: n,
        bytes: BYTES,
        from: 'customer@client.bench.test',
        to: `support@inbox.${b.domain}`,
      });
      if (src.code !== 0 || src.stderr.trim() !== '') {
        runnable = `smtp-source into our MX: exit ${src.code}, ${src.stderr.trim().split('\n').slice(0, 3).join(' / ')}`;
      }
      const acceptedS = (Date.now() - t0) / 1000;
      const got = (await waitCount(stored, before + n, src.code === 0 ? timeoutMs : 5000)) - before;
      const rate = got / ((Date.now() - t0) / 1000);
      acceptRates.push(n / acceptedS);
      log(
        `inbound mailroom #${r + 1}: ${got}/${n} stored, ${fmt(rate)} stored/s (all accepted after ${fmt(acceptedS)} s)`,
      );
      if (got < n) {
        runnable = `${runnable === 'yes' ? '' : `${runnable}; `}only ${got} of ${n} messages stored within the time limit`;
        continue;
      }
      ourRates.push(rate);
    }
  } catch (e) {
    runnable = `error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  } finally {
    db?.close();
    await b.stop();
    pf.stop();
  }

  const pfS = spread(pfRates);
  const lines = [
    `${n.toLocaleString('en-US')} messages of ~${BYTES} bytes per repeat${opts.full ? '' : ' (reduced; `--full` runs 10,000)'}, \`smtp-source -d -s ${SESSIONS}\`, one recipient each, ${opts.repeats} repeats. Stored = a row in \`inbound_messages\` (Mailroom) / a file in the maildir (Postfix virtual delivery, one static mailbox). Time = smtp-source start → the N-th message stored. Both sides run for the whole scenario and their repeats alternate (Postfix, Mailroom, Postfix, …).`,
    '',
  ];
  const figures: Record<string, Spread> = { postfix: pfS };
  if (runnable !== 'yes' || ourRates.length === 0) {
    lines.push(
      `**Mailroom side did not complete**: ${runnable === 'yes' ? 'no repeat completed' : runnable}.`,
      '',
      '| figure | Mailroom | Postfix | ratio | target |',
      '|---|---|---|---|---|',
      `| stored/s | not runnable | ${fmtSpread(pfS)} | — | ≥ 1.0× |`,
    );
  } else {
    const ratio = spread(ourRates.map((x, i) => x / (pfRates[i] ?? NaN)));
    figures.ratio = ratio;
    lines.push(
      '| figure | Mailroom | Postfix | ratio (per repeat) | target |',
      '|---|---|---|---|---|',
      `| stored/s | ${fmtSpread(spread(ourRates))} | ${fmtSpread(pfS)} | ${fmtSpread(ratio, 2)} | ≥ 1.0× ${ratio.median >= 1 ? '(met)' : `(missed by ${fmt((1 - ratio.median) * 100, 0)} %)`} |`,
    );
  }
  if (acceptRates.length > 0)
    notes.push(
      `- Mailroom accepted/s (smtp-source start → smtp-source done, every message answered 250; processing by the worker continues after): ${fmtSpread(spread(acceptRates))}`,
    );
  lines.push(...notes);
  return { id: 'inbound', title: 'inbound', lines, figures };
}
