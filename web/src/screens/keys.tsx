// Screen 5: API keys: create with a mode (live or test), a permission and an optional domain
// (the token shown once, with copy, a warning and a snippet that sends to the simulator), list
// with mode and permission, revoke.
import { useState } from 'preact/hooks';
import type { ApiKeyList, CreatedApiKey, DomainList } from '../api';
import { del, get, post } from '../api';
import { Badge, CopyButton, Empty, ErrorBox, Loaded, PageTitle, Time, useAction, useLoad } from '../ui';

/** The simulator's address that is always delivered (docs/testing-your-integration.md). */
const SIMULATOR_DELIVERED = 'delivered@simulator.mailroom.invalid';

/** A first send with the new key to the simulator: curl against /v1, Node with the Resend SDK. */
export function sendSnippets(origin: string, token: string, from: string): { curl: string; node: string } {
  const body = JSON.stringify({
    from,
    to: SIMULATOR_DELIVERED,
    subject: 'Hello from Mailroom',
    text: 'It works.',
  });
  const curl = [
    `curl -X POST ${origin}/v1/emails \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}'`,
  ].join('\n');
  const node = [
    `import { Resend } from 'resend';`,
    ``,
    `const resend = new Resend('${token}', { baseUrl: '${origin}' });`,
    `const { data, error } = await resend.emails.send({`,
    `  from: '${from}',`,
    `  to: '${SIMULATOR_DELIVERED}',`,
    `  subject: 'Hello from Mailroom',`,
    `  text: 'It works.',`,
    `});`,
    `console.log(data ?? error);`,
  ].join('\n');
  return { curl, node };
}

export function ApiKeys() {
  const [load, reload] = useLoad(() => get<ApiKeyList>('/v1/api-keys'), 'keys');
  const [domains] = useLoad(() => get<DomainList>('/v1/domains'), 'keys-domains');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [permission, setPermission] = useState<'full_access' | 'sending_access'>('full_access');
  const action = useAction();
  const domainList = domains.state === 'ok' ? domains.data.data : [];
  const domainName = (id: string | null) => domainList.find((d) => d.id === id)?.domain;
  const fromDomain = domainList.find((d) => d.status === 'VERIFIED') ?? domainList[0];
  return (
    <section>
      <PageTitle>API keys</PageTitle>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const value = (n: string) =>
            (form.elements.namedItem(n) as HTMLInputElement | HTMLSelectElement).value;
          const name = value('name').trim();
          const domainId = permission === 'sending_access' ? value('domainId') : '';
          void action.run(async () => {
            setCreated(
              await post<CreatedApiKey>('/v1/api-keys', {
                name,
                mode: value('mode'),
                permission,
                ...(domainId ? { domainId } : {}),
              }),
            );
            form.reset();
            setPermission('full_access');
            await reload();
          });
        }}
      >
        <label>
          Key name
          <input name="name" placeholder="production server" required />
        </label>
        <label>
          Mode
          <select name="mode">
            <option value="live">live: mail is delivered</option>
            <option value="test">test: mail is captured, never delivered</option>
          </select>
        </label>
        <label>
          Permission
          <select
            name="permission"
            value={permission}
            onChange={(e) => setPermission(e.currentTarget.value as 'full_access' | 'sending_access')}
          >
            <option value="full_access">full access</option>
            <option value="sending_access">sending only</option>
          </select>
        </label>
        {permission === 'sending_access' ? (
          <label>
            Domain
            <select name="domainId">
              <option value="">any of the account's domains</option>
              {domainList.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.domain}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="submit" disabled={action.busy}>
          Create key
        </button>
      </form>
      {action.error ? <ErrorBox message={action.error} /> : null}
      {created ? (
        <div class="card secret" role="status">
          <h2>Your new key “{created.name}”</h2>
          <p>
            <strong>Copy it now: it is shown only once.</strong> {created.warning}
          </p>
          <p>
            <code class="mono token" data-token="api-key">
              {created.token}
            </code>{' '}
            <CopyButton value={created.token} label="API key" />
          </p>
          <Snippets token={created.token} from={`hello@${fromDomain?.domain ?? 'your-domain.example'}`} />
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      ) : null}
      <Loaded load={load}>
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No API keys. Create one for each server that sends mail.</Empty>
          ) : (
            <div class="table-wrap" tabIndex={0}>
              <table class="cards">
                <caption class="sr-only">API keys</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Mode</th>
                    <th scope="col">Permission</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((k) => (
                    <tr key={k.id}>
                      <td>{k.name}</td>
                      <td class="mono">{k.keyPrefix}…</td>
                      <td data-label="Mode">
                        <Badge value={k.mode} tone={k.mode === 'test' ? 'warn' : 'neutral'} />
                      </td>
                      <td data-label="Permission">
                        {k.permission === 'full_access' ? 'full access' : 'sending only'}
                        {k.domainId ? ` (${domainName(k.domainId) ?? 'a deleted domain'})` : ''}
                      </td>
                      <td data-label="Created">
                        <Time iso={k.createdAt} />
                      </td>
                      <td data-label="Last used">
                        <Time iso={k.lastUsedAt} />
                      </td>
                      <td>
                        {k.revokedAt ? (
                          <span class="muted">revoked</span>
                        ) : (
                          <button
                            type="button"
                            class="small danger"
                            aria-label={`Revoke ${k.name}`}
                            onClick={() =>
                              void action.run(async () => {
                                if (
                                  !window.confirm(
                                    `Revoke “${k.name}”? Servers using it stop sending at once.`,
                                  )
                                )
                                  return;
                                await del(`/v1/api-keys/${k.id}`);
                                await reload();
                              })
                            }
                          >
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  );
}

/** After a key is made: a first send with it, to the simulator, as curl and as Node. */
function Snippets(props: { token: string; from: string }) {
  const { curl, node } = sendSnippets(window.location.origin, props.token, props.from);
  return (
    <div class="snippets">
      <h3>Send a first email with it</h3>
      <p class="muted">
        To the simulator's {SIMULATOR_DELIVERED}: nothing leaves the server, the email shows as delivered
        under Emails.
      </p>
      <p>
        curl <CopyButton value={curl} label="curl command" />
      </p>
      <pre class="mono snippet" data-snippet="curl">
        {curl}
      </pre>
      <p>
        Node, with the Resend SDK <CopyButton value={node} label="Node snippet" />
      </p>
      <pre class="mono snippet" data-snippet="node">
        {node}
      </pre>
    </div>
  );
}
