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
