// Screen 5: API keys: create (the token shown once, with copy and warning), list, revoke.
import { useState } from 'preact/hooks';
import type { ApiKeyList, CreatedApiKey } from '../api';
import { del, get, post } from '../api';
import { CopyButton, Empty, ErrorBox, Loaded, PageTitle, Time, useAction, useLoad } from '../ui';

export function ApiKeys() {
  const [load, reload] = useLoad(() => get<ApiKeyList>('/v1/api-keys'), 'keys');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const action = useAction();
  return (
    <section>
      <PageTitle>API keys</PageTitle>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const name = (form.elements.namedItem('name') as HTMLInputElement).value.trim();
          void action.run(async () => {
            setCreated(await post<CreatedApiKey>('/v1/api-keys', { name }));
            form.reset();
            await reload();
          });
        }}
      >
        <label>
          Key name
          <input name="name" placeholder="production server" required />
        </label>
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
