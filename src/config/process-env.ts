import os from 'node:os';

/**
 * The process environment is read here and in load-config.ts only (STYLE.md convention 2,
 * enforced by eslint.config.mjs): a setting belongs in config-table.ts; these are the reads that
 * are not settings.
 */

/** The whole environment, for `ctl doctor`, which validates it as the appliance would. */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * Who runs `mailroom ctl` (the operator actor in the audit log); not a setting of the appliance.
 * sudo's invoking user first (the person, not root), then the shell's USER/LOGNAME, then the
 * account of the process's uid (`docker exec` sets no USER), then the uid itself: never unknown.
 */
export function invokingUser(env: NodeJS.ProcessEnv = process.env): string {
  const named = [env.SUDO_USER, env.USER, env.LOGNAME].find((v) => v !== undefined && v.trim() !== '');
  if (named !== undefined) return named.trim();
  try {
    const { username } = os.userInfo();
    if (username) return username;
  } catch {
    // A uid without a passwd entry (a container started with --user 12345).
  }
  return `uid-${process.getuid?.() ?? 0}`;
}

/** The supervisor's environment, which its children start with (src/supervisor.ts adds to it). */
export function inheritedEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/** The processes a node runs (`node dist/src/main.js api,worker`), in the order named. */
export type NodeRole = 'api' | 'worker' | 'mta';

const ROLES: readonly NodeRole[] = ['api', 'worker', 'mta'];

/**
 * Set by the supervisor (src/main.ts) for its children from its command line: which
 * processes run on this node. Not a setting: the command line is the selection. A
 * process started without the supervisor (tests, a hand-run worker) counts as a node
 * running all three, as `npm start` does.
 */
export const NODE_ROLES_ENV = 'MAILROOM_NODE_ROLES';

export function nodeRoles(): readonly NodeRole[] {
  const raw = process.env[NODE_ROLES_ENV];
  if (raw === undefined || raw.trim() === '') return ROLES;
  const named = new Set(raw.split(',').map((r) => r.trim()));
  const roles = ROLES.filter((r) => named.has(r));
  return roles.length > 0 ? roles : ROLES;
}
