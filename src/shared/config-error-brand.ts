/** ConfigError is told apart by name, not instanceof (it may cross module instances). */
export function isConfigError(err: unknown): boolean {
  return (
    err instanceof Error &&
    err.name === 'ConfigError' &&
    Array.isArray((err as { problems?: unknown }).problems)
  );
}
