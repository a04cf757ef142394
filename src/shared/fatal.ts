import { isConfigError } from './config-error-brand';
import { LISTEN_FAILED_EXIT, isListenError } from './listen-failure';

/**
 * Last resort for a process entry point: one JSON line on stdout (the log stream
 * stays JSON even when boot fails), exit 78 (EX_CONFIG) for bad configuration,
 * 71 for a listener that could not bind (src/shared/listen-failure.ts).
 */
export function exitOnFatal(processName: string): (err: unknown) => never {
  return (err) => {
    const config = isConfigError(err);
    const listen = isListenError(err);
    const line = {
      level: 'fatal',
      time: new Date().toISOString(),
      process: processName,
      event: config ? 'config_invalid' : listen ? 'listen_failed' : `${processName}_crashed`,
      msg: err instanceof Error ? err.message : String(err),
      ...(config ? { problems: (err as { problems: unknown }).problems } : {}),
      ...(listen ? { setting: err.setting, port: err.port, code: err.code } : {}),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    process.exit(config ? 78 : listen ? LISTEN_FAILED_EXIT : 1);
  };
}
