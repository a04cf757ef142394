// The banner of a server whose MAIL_HOSTNAME is no public name (the OS host name of a VM or a
// container, `vm` or a hex id): the records naming it cannot work and receivers refuse its HELO.
import type { MailHostname, Settings } from '../api';
import { get } from '../api';
import { useLoad } from '../ui';

export function MailHostnameBanner(props: { mailHostname: MailHostname }) {
  const { name, usable, reason } = props.mailHostname;
  if (usable) return null;
  return (
    <div class="banner warn" role="alert" data-banner="mail-hostname">
      <p>
        <strong>
          This server's <code>MAIL_HOSTNAME</code> (<code>{name}</code>) is not a public fully qualified
          domain name.
        </strong>
      </p>
      <p>
        The SPF include, return-path and MX records it hands out name it, so they cannot work where you
        publish them, and receiving servers refuse mail from a host that greets them with such a name.
      </p>
      <p>
        The operator sets <code>MAIL_HOSTNAME</code> to this server's public name (for example{' '}
        <code>mail.example.com</code>, with an A record pointing here) and restarts it; the records below
        change with it.
      </p>
      {reason ? <p class="small-text">{reason}</p> : null}
    </div>
  );
}

/** The banner for screens that do not load /v1/settings themselves; nothing until it answers. */
export function MailHostnameCheck() {
  const [load] = useLoad(() => get<Settings>('/v1/settings'), 'settings:mail-hostname');
  return load.state === 'ok' ? <MailHostnameBanner mailHostname={load.data.mailHostname} /> : null;
}
