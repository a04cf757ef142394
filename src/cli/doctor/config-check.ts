import type { Config, ConfigProblem } from '../../config';
import { ConfigError, mailHostnameWarning, openSignupWarning, parseConfig } from '../../config';
import type { CheckResult } from './check-result';
import { result } from './check-result';

export function checkConfig(env: NodeJS.ProcessEnv): { config: Config | null; check: CheckResult } {
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const problems: readonly ConfigProblem[] = err.problems;
    return {
      config: null,
      check: result(
        'config',
        'Configuration',
        'fail',
        problems.map((p) => `${p.env}: ${p.problem}`).join('; '),
        ['Fix every key listed (docs/configuration.md); the appliance refuses to start until then.'],
      ),
    };
  }
  const hints: string[] = [];
  const given = (k: string): boolean => env[k] !== undefined && env[k] !== '';
  const hostnameWarning = mailHostnameWarning(config);
  if (hostnameWarning !== undefined) hints.push(hostnameWarning);
  else if (!given('MAIL_HOSTNAME'))
    hints.push(
      `MAIL_HOSTNAME is unset, so the OS host name "${config.mailHostname}" is used in the banner and HELO: set the public name of this mail host.`,
    );
  if (!given('BASE_URL')) hints.push(`BASE_URL is unset (${config.baseUrl}): set the public URL of the API.`);
  const signupWarning = openSignupWarning(config);
  if (signupWarning !== undefined) hints.push(signupWarning);
  if (config.internalApiToken === undefined)
    hints.push('INTERNAL_API_TOKEN is unset: /metrics and /internal/* answer 401.');
  return {
    config,
    check: result(
      'config',
      'Configuration',
      hints.length > 0 ? 'warn' : 'ok',
      `valid; MAIL_HOSTNAME ${config.mailHostname}, API ${config.baseUrl}`,
      hints,
    ),
  };
}
