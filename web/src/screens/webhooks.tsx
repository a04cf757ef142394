// Screen 6: webhooks: create with an event picker (the signing secret shown once) and the list.
// One endpoint's screen is webhook-detail.tsx.
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { CreatedWebhook, WebhookList } from '../api';
import { get, post } from '../api';
import { Badge, CopyButton, Empty, ErrorBox, Loaded, PageTitle, useAction, useLoad, field } from '../ui';
import { EVENTS, EventPicker, pickedEvents } from './webhook-events';

/** What POST /v1/webhooks accepts as `url` (webhook-url.ts, destination-check.ts), in words. */
const URL_RULES =
  'An absolute http:// or https:// address, at most 2,048 characters, with no user name or password and no #fragment. ' +
  "Addresses on loopback, private or link-local networks are refused unless the server's operator allows them.";

export function Webhooks() {
  const [load, reload] = useLoad(() => get<WebhookList>('/v1/webhooks'), 'webhooks');
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const action = useAction();
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <section>
      <PageTitle>Webhooks</PageTitle>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          const picked = pickedEvents(data);
          if ('refusal' in picked) {
            action.clear();
            setRefusal(picked.refusal);
            return;
          }
          setRefusal(null);
          void action.run(async () => {
            setCreated(
              await post<CreatedWebhook>('/v1/webhooks', { url: field(data, 'url'), events: picked.events }),
            );
            form.reset();
            await reload();
          });
        }}
      >
        <h2>New webhook</h2>
        <label>
          Endpoint URL (http or https)
          <input
            name="url"
            type="url"
            placeholder="https://example.com/hooks/mail"
            required
            aria-describedby="webhook-url-rules"
          />
        </label>
        <p id="webhook-url-rules" class="muted small-text">
          {URL_RULES}
        </p>
        <EventPicker checked={EVENTS} />
        <button type="submit" disabled={action.busy}>
          Create webhook
        </button>
      </form>
      {refusal ? <ErrorBox message={refusal} /> : null}
      {action.error ? <ErrorBox message={action.error} /> : null}
      {created ? (
        <div class="card secret" role="status">
          <p>
            <strong>Signing secret, shown only once:</strong> <code class="mono">{created.secret}</code>{' '}
            <CopyButton value={created.secret} label="signing secret" />
          </p>
          <p>
            Store it where your receiver verifies X-Mail-Signature: it cannot be shown again, only rotated.
          </p>
          {created.warnings?.map((w) => (
            <p key={w}>{w}</p>
          ))}
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
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
