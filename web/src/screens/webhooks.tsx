// Screen 6: webhooks: create with an event picker (secret shown once), the attempt log,
// re-enable after auto-disable, send a test event.
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { CreatedWebhook, Webhook, WebhookDetail as WebhookDetailView, WebhookList } from '../api';
import { del, enumValues, get, post } from '../api';
import {
  Badge,
  CopyButton,
  Empty,
  ErrorBox,
  Loaded,
  PageTitle,
  Time,
  useAction,
  useLoad,
  field,
} from '../ui';

const EVENTS = enumValues<Webhook['events'][number]>({
  'email.sent': true,
  'email.delivered': true,
  'email.bounced': true,
  'email.failed': true,
  'email.complained': true,
  'email.received': true,
  'email.unsubscribed': true,
});

export function Webhooks() {
  const [load, reload] = useLoad(() => get<WebhookList>('/v1/webhooks'), 'webhooks');
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  return (
    <section>
      <PageTitle>Webhooks</PageTitle>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          void action.run(async () => {
            const created = await post<CreatedWebhook>('/v1/webhooks', {
              url: field(data, 'url'),
              events: data.getAll('events').map(String),
            });
            setSecret(created.secret);
            form.reset();
            await reload();
          });
        }}
      >
        <h2>New webhook</h2>
        <label>
          URL (https)
          <input name="url" type="url" placeholder="https://example.com/hooks/mail" required />
        </label>
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((ev) => (
            <label key={ev} class="inline">
              <input type="checkbox" name="events" value={ev} defaultChecked /> {ev}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={action.busy}>
          Create webhook
        </button>
      </form>
      {action.error ? <ErrorBox message={action.error} /> : null}
      {secret ? (
        <div class="card secret" role="status">
          <p>
            <strong>Signing secret, shown only once:</strong> <code class="mono">{secret}</code>{' '}
            <CopyButton value={secret} label="signing secret" />
          </p>
          <button type="button" class="secondary" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </div>
      ) : null}
      <Loaded load={load}>
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No webhooks. Add one to hear about deliveries, bounces and inbound mail.</Empty>
          ) : (
            <ul class="cards">
              {list.data.map((w) => (
                <li key={w.id} class="card">
                  <Link href={`/webhooks/${w.id}`}>{w.url}</Link>{' '}
                  <Badge value={w.enabled ? 'enabled' : 'disabled'} />
                  <div class="muted">{w.events.join(', ')}</div>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

export function WebhookDetail(props: { id: string }) {
  const path = `/v1/webhooks/${encodeURIComponent(props.id)}`;
  const [load, reload] = useLoad(() => get<WebhookDetailView>(path), path);
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  return (
    <section>
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <Loaded load={load}>
        {(w) => (
          <>
            <PageTitle>Webhook</PageTitle>
            <dl class="facts">
              <dt>URL</dt>
              <dd class="mono">{w.url}</dd>
              <dt>State</dt>
              <dd>
                <Badge value={w.enabled ? 'enabled' : 'disabled'} />
                {w.disabledReason ? <span> {w.disabledReason}</span> : null}
              </dd>
              <dt>Consecutive failures</dt>
              <dd>{w.consecutiveFailures}</dd>
              <dt>Last success</dt>
              <dd>
                <Time iso={w.lastSuccessAt} />
              </dd>
              <dt>Last failure</dt>
              <dd>
                <Time iso={w.lastFailureAt} />
              </dd>
            </dl>
            <div class="actions">
              {!w.enabled ? (
                <button
                  type="button"
                  onClick={() =>
                    void action.run(async () => {
                      await post(`${path}/enable`);
                      setNote('Re-enabled: the failure count is reset.');
                      await reload();
                    })
                  }
                >
                  Re-enable
                </button>
              ) : null}
              <button
                type="button"
                class="secondary"
                onClick={() =>
                  void action.run(async () => {
                    await post(`${path}/test`);
                    setNote('Test event queued: its attempt appears below.');
                    await reload();
                  })
                }
              >
                Send a test event
              </button>
              <button type="button" class="secondary" onClick={() => void reload()}>
                Refresh
              </button>
              <button
                type="button"
                class="danger"
                onClick={() =>
                  void action.run(async () => {
                    if (!window.confirm('Delete this webhook?')) return;
                    await del(path);
                    window.history.back();
                  })
                }
              >
                Delete
              </button>
            </div>
            {note ? <p role="status">{note}</p> : null}
            {action.error ? <ErrorBox message={action.error} /> : null}
            <h2>Attempts</h2>
            {w.attempts.length === 0 ? (
              <Empty>No attempts yet.</Empty>
            ) : (
              <div class="table-wrap" tabIndex={0}>
                <table>
                  <caption class="sr-only">Delivery attempts, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Event</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">Result</th>
                      <th scope="col">Response</th>
                      <th scope="col">Duration</th>
                    </tr>
                  </thead>
                  <tbody>
                    {w.attempts.map((a) => (
                      <tr key={a.id}>
                        <td>
                          <Time iso={a.createdAt} />
                        </td>
                        <td>{a.event}</td>
                        <td>{a.attempt}</td>
                        <td>
                          <Badge value={a.succeeded ? 'ok' : 'failed'} />
                        </td>
                        <td class="mono">
                          {a.httpStatus ?? ''} {a.error ?? ''}
                          {a.responseExcerpt ? (
                            <details>
                              <summary>Response body</summary>
                              <pre class="excerpt">{a.responseExcerpt}</pre>
                            </details>
                          ) : null}
                        </td>
                        <td>{a.durationMs} ms</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
