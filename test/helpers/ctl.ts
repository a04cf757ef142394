import { execFile } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './appliance';

/** Runs `npm run ctl` (the compiled CLI) with the appliance's environment. */
export function runCtl(
  env: Record<string, string>,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'dist', 'src', 'cli', 'ctl.js'), ...args],
      { env },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
