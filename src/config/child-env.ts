/**
 * The environment of the supervisor's children: its own, with the values boot chose
 * at start (MTA_INJECT_PORT when it is 0). A file of its own, without imports: the
 * supervisor loads it and must not load zod (src/main.ts, issue 11).
 */
export function childEnvironment(chosen: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  return { ...process.env, ...chosen };
}
