/**
 * The process environment is read here and in load-config.ts only (STYLE.md convention 2,
 * enforced by eslint.config.mjs): a setting belongs in config-table.ts; these are the reads that
 * are not settings.
 */

/** The whole environment, for `ctl doctor`, which validates it as the appliance would. */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/** Who runs `mailroom ctl` (the operator actor in the audit log); not a setting of the appliance. */
export function invokingUser(): string | undefined {
  return process.env.USER;
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
