// One end-to-end run through the worker's own sender with every process under --cpu-prof:
// where the CPU of a delivered message goes (issue 31's ≤ 10 ms target). Not part of `npm run
// bench`; run `node dist/bench/profile-sender.js [messages]` after a build.
import fs from 'node:fs';
import path from 'node:path';
import { mailroomRun } from './end-to-end';
import { ensurePostfix, fmt, log, ports, startBench, startSmtpSink, stopChild, WORK } from './lib';
import { summarizeProfile } from './profile';

async function main(): Promise<void> {
  ensurePostfix();
  const n = Number(process.argv[2] ?? 500);
  const dir = path.join(WORK, 'profile-sender');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const [sinkPort] = (await ports(1)) as [number];
  const sink = startSmtpSink(sinkPort);
  const b = await startBench({
    env: {
      SMTP_RELAY: `127.0.0.1:${sinkPort}`,
      OUTBOUND_SENDER: 'worker',
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
    },
  });
  try {
    const m = await mailroomRun(b, n, 180_000, {});
    log(`${m.delivered}/${n} delivered, ${fmt(m.rate)}/s, CPU ${JSON.stringify(m.cpuPerMessage)}`);
  } finally {
    await b.stop();
    await stopChild(sink);
  }
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const lines = summarizeProfile(path.join(dir, file), n);
    console.log(`\n## ${file}\n${lines.slice(0, 40).join('\n')}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
