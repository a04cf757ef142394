import { isConfigError } from './config-error-brand';

/**
 * Last resort for a process entry point: one JSON line on stdout (the log stream
 * stays JSON even when boot fails), exit 78 (EX_CONFIG) for bad configuration.
 */
export function exitOnFatal(processName: string): (err: unknown) => never {
  return (err) => {
    const config = isConfigError(err);
    const line = {
      level: 'fatal',
      time: new Date().toISOString(),
      process: processName,
      event: config ? 'config_invalid' : `${processName}_crashed`,
      msg: err instanceof Error ? err.message : String(err),
      ...(config ? { problems: (err as { problems: unknown }).problems } : {}),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    process.exit(config ? 78 : 1);
  };
}
