import { publicDnsNameProblem } from '../shared/public-dns-name';
import type { Config } from './config-table';

/**
 * Why MAIL_HOSTNAME is a poor name for a mail host, or undefined when it looks fine.
 * Its default is the OS host name, often a bare `vm` or `laptop` (a container's is a hex id):
 * the SPF include, MX and bounce records the API hands customers are built from it
 * (`include:_spf.vm`) and cannot resolve, and receivers refuse a HELO that is not
 * a fully qualified domain name (RFC 5321 section 4.1.1.1). Said at boot, by `ctl doctor`
 * and by `ctl config check`; the rule is publicDnsNameProblem, which the API's record
 * views and the dashboard's banner use too.
 */
export function mailHostnameWarning(
  config: Pick<Config, 'mailHostname' | 'spfIncludeHost'>,
): string | undefined {
  const problem = publicDnsNameProblem(config.mailHostname);
  if (problem === undefined) return undefined;
  return (
    `MAIL_HOSTNAME "${config.mailHostname}" is not a public fully qualified domain name ` +
    `(${problem}; unset, it is the OS host name): the DNS records given to customers name it ` +
    `(include:${config.spfIncludeHost}) and receivers refuse such a HELO. ` +
    `Set MAIL_HOSTNAME to this host's public name, e.g. mail.example.com.`
  );
}
