import { spawn } from 'node:child_process';

export function runCommand(
  cmd: string,
  args: readonly string[],
  io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: [io.stdin ? 'pipe' : 'ignore', io.stdout ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => (stderr += d));
    if (io.stdin && child.stdin) {
      // tar failing early closes its stdin: that surfaces as its exit code, not as an EPIPE crash.
      child.stdin.on('error', () => undefined);
      io.stdin.pipe(child.stdin);
    }
    if (io.stdout && child.stdout) child.stdout.pipe(io.stdout, { end: false });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${String(code)}: ${stderr.trim()}`));
    });
  });
}
