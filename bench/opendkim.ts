// Postfix + OpenDKIM: the stack a self-hoster would assemble instead of Mailroom (issue 18
// item 10). A private OpenDKIM on a loopback milter port, its key and configuration under
// bench/.work, and Postfix's milter settings to put in front of it.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { log, sleep, smtpSource, WORK } from './lib';
import type { TimingSink } from './timing-sink';

const OPENDKIM_BIN = '/usr/sbin/opendkim';
const GENKEY_BIN = '/usr/sbin/opendkim-genkey';
export const DKIM_SELECTOR = 'bench';

/** Installs Debian's opendkim when missing and stops any system instance its postinst started. */
export function ensureOpendkim(): void {
  if (fs.existsSync(OPENDKIM_BIN) && fs.existsSync(GENKEY_BIN)) return;
  log('opendkim missing: installing Debian packages (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['install', '-y', '-q', 'opendkim', 'opendkim-tools'], { stdio: 'inherit', env });
  // The postinst may start a system instance: stop it (by its pid file), only private ones run here.
  try {
    execFileSync('service', ['opendkim', 'stop'], { stdio: 'ignore' });
  } catch {
    /* no init script, or not running */
  }
  try {
    process.kill(Number(fs.readFileSync('/run/opendkim/opendkim.pid', 'utf8').trim()), 'SIGTERM');
  } catch {
    /* not running */
  }
}

export interface OpenDkim {
  /** For Postfix's smtpd_milters / non_smtpd_milters. */
  readonly milter: string;
  /** Postfix main.cf settings that put this milter in front of every message. */
  readonly postfixSettings: Record<string, string>;
  stop(): Promise<void>;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const once = (): Promise<boolean> =>
    new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
  return (async () => {
    while (Date.now() < deadline) {
      if (await once()) return;
      await sleep(100);
    }
    throw new Error(`opendkim did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
  })();
}

/**
 * A private OpenDKIM in the foreground: a fresh RSA-2048 key for `domain` per run, relaxed/relaxed,
 * signing only (`Mode s`) what Postfix hands it from 127.0.0.1 (the default InternalHosts).
 * `RequireSafeKeys false`: the key sits under bench/.work, not in a directory OpenDKIM trusts.
 */
export async function startOpendkim(name: string, port: number, domain: string): Promise<OpenDkim> {
  const dir = path.join(WORK, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync(GENKEY_BIN, ['-b', '2048', '-d', domain, '-s', DKIM_SELECTOR, '-D', dir], { stdio: 'ignore' });
  const conf = path.join(dir, 'opendkim.conf');
  fs.writeFileSync(
    conf,
    [
      'Syslog no',
      'Mode s',
      'Canonicalization relaxed/relaxed',
      `Domain ${domain}`,
      `Selector ${DKIM_SELECTOR}`,
      `KeyFile ${path.join(dir, `${DKIM_SELECTOR}.private`)}`,
      'RequireSafeKeys false',
      `Socket inet:${port}@127.0.0.1`,
      `PidFile ${path.join(dir, 'opendkim.pid')}`,
      'Background no',
      'UMask 007',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(OPENDKIM_BIN, ['-f', '-x', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitForPort(port, 10_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}: ${output.slice(0, 500)}`, { cause: e });
  }
  const milter = `inet:127.0.0.1:${port}`;
  return {
    milter,
    postfixSettings: {
      smtpd_milters: milter,
      non_smtpd_milters: milter,
      // A milter that is down must not let unsigned mail through: Postfix defers instead.
      milter_default_action: 'tempfail',
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([done, sleep(3000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** How many of these raw messages carry a DKIM-Signature header (in the header block). */
export function countSigned(raws: readonly Buffer[]): number {
  return raws.filter((raw) => {
    const head = raw.toString('latin1').split(/\r?\n\r?\n/, 1)[0] ?? '';
    return /^dkim-signature:/im.test(head);
  }).length;
}

/** The sender whose mail a signing Postfix relays to the sample sink instead of smtp-sink. */
export const SAMPLE_SENDER = 'sample@shop.example.com';

/** Postfix settings that send SAMPLE_SENDER's mail to `sinkPort` (the rest keeps its relayhost). */
export function sampleRoute(sinkPort: number): Record<string, string> {
  return { sender_dependent_relayhost_maps: `inline:{ ${SAMPLE_SENDER}=[127.0.0.1]:${sinkPort} }` };
}

/**
 * Injects `n` messages from SAMPLE_SENDER into the signing Postfix on `port` and counts how many
 * reach `sink` with a DKIM-Signature: smtp-sink, the throughput runs' sink, keeps nothing to check.
 */
export async function signedSample(port: number, sink: TimingSink, n: number): Promise<number> {
  sink.reset();
  await smtpSource({
    port,
    sessions: 1,
    messages: n,
    bytes: 5200,
    from: SAMPLE_SENDER,
    to: 'buyer@dest.bench.test',
  });
  try {
    await sink.waitFor(n, 30_000);
  } catch (e) {
    log(`opendkim sample: ${(e as Error).message}`);
  }
  return countSigned(sink.messages.map((m) => m.raw));
}
