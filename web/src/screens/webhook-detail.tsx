// Screen 6b: one webhook (issue 29 item 10): its state and subscribed events (editable), rotate
// the signing secret (the new one shown once), re-enable, send a test event and redeliver an
// attempt, each followed until its attempt shows without a refresh; the attempt log.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type {
  RotatedWebhook,
  WebhookAttempt,
  WebhookDetail as WebhookDetailView,
  WebhookRedeliveryQueued,
  WebhookTestQueued,
} from '../api';
import { del, describeError, get, patch, post } from '../api';
import { Badge, CopyButton, ErrorBox, Loaded, PageTitle, Time, useAction, useLoad } from '../ui';
import { AttemptLog } from './webhook-attempts';
import { EventPicker, pickedEvents } from './webhook-events';

/** How long a queued delivery is followed: past the receiver's 10 s, with room for a busy worker. */
const FOLLOW_MS = 30_000;
const POLL_MS = 1_000;

function outcomeWords(a: WebhookAttempt): string {
  if (a.succeeded) return `the receiver answered HTTP ${a.httpStatus ?? ''}`.trim();
  return a.httpStatus === null ? `it failed: ${a.error ?? 'no response'}` : `it failed: HTTP ${a.httpStatus}`;
}

export function WebhookDetail(props: { id: string }) {
  const path = `/v1/webhooks/${encodeURIComponent(props.id)}`;
  const [load, reload] = useLoad(() => get<WebhookDetailView>(path), path);
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [following, setFollowing] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  /** Follows a queued delivery until its attempt shows: the test event appears without a refresh. */
  async function follow(deliveryId: string, what: string): Promise<void> {
    setFollowing(true);
    setNote(`${what} queued: waiting for its attempt…`);
    try {
      await poll(deliveryId, what);
    } catch (err) {
      if (mounted.current) setNote(`${what} queued; reading its attempt failed: ${describeError(err)}`);
    } finally {
      if (mounted.current) setFollowing(false);
    }
  }

  /** Polls the endpoint until the delivery's first attempt is in its log, at most FOLLOW_MS. */
  async function poll(deliveryId: string, what: string): Promise<void> {
    const deadline = Date.now() + FOLLOW_MS;
    while (mounted.current && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const found = (await get<WebhookDetailView>(path)).attempts.find((a) => a.deliveryId === deliveryId);
      if (found) {
        await reload();
        if (mounted.current) setNote(`${what} sent: ${outcomeWords(found)}. Its attempt is below.`);
        return;
      }
    }
    if (mounted.current) {
      setNote(
        `${what} queued, but no attempt after ${FOLLOW_MS / 1000} s: the worker may be busy or stopped. Refresh to look again.`,
      );
    }
  }

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
              <dt>Events</dt>
              <dd data-events>{w.events.join(', ')}</dd>
              <dt>Payload format</dt>
              <dd>{w.payloadFormat}</dd>
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
                disabled={action.busy || following}
                onClick={() =>
                  void action.run(async () => {
                    const queued = await post<WebhookTestQueued>(`${path}/test`);
                    void follow(queued.deliveryId, 'Test event');
                  })
                }
              >
                Send a test event
              </button>
              <button
                type="button"
                class="secondary"
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    const ask =
                      'Rotate the signing secret? The current secret stops working at once: every delivery from now on, retries included, is signed with the new one only.';
                    if (!window.confirm(ask)) return;
                    setSecret((await post<RotatedWebhook>(`${path}/rotate-secret`)).secret);
                    setNote(null);
                    await reload();
                  })
                }
              >
                Rotate secret
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
            {secret ? (
              <div class="card secret" role="status">
                <p>
                  <strong>New signing secret, shown only once:</strong>{' '}
                  <code class="mono" data-token="webhook-secret">
                    {secret}
                  </code>{' '}
                  <CopyButton value={secret} label="new signing secret" />
                </p>
                <p>
                  The old secret no longer verifies. Update your receiver now: deliveries it refuses meanwhile
                  are retried with the usual backoff.
                </p>
                <button type="button" class="secondary" onClick={() => setSecret(null)}>
                  I have stored it
                </button>
              </div>
            ) : null}
            <p role="status">{note ?? ''}</p>
            {action.error ? <ErrorBox message={action.error} /> : null}
            <form
              class="card"
              key={w.events.join(',')}
              onSubmit={(e) => {
                e.preventDefault();
                const picked = pickedEvents(new FormData(e.currentTarget));
                if ('refusal' in picked) {
                  setRefusal(picked.refusal);
                  return;
                }
                setRefusal(null);
                void action.run(async () => {
                  await patch(path, { events: picked.events });
                  setNote(`Events saved: ${picked.events.join(', ')}.`);
                  await reload();
                });
              }}
            >
              <h2>Subscribed events</h2>
              <EventPicker checked={w.events} legend="Events this webhook hears (at least one)" />
              {refusal ? <ErrorBox message={refusal} /> : null}
              <button type="submit" disabled={action.busy}>
                Save events
              </button>
            </form>
            <h2>Attempts</h2>
            <AttemptLog
              attempts={w.attempts}
              enabled={w.enabled}
              busy={action.busy || following}
              onRedeliver={(a) =>
                void action.run(async () => {
                  const queued = await post<WebhookRedeliveryQueued>(
                    `${path}/attempts/${encodeURIComponent(a.id)}/redeliver`,
                  );
                  void follow(queued.deliveryId, `Redelivery of ${a.event}`);
                })
              }
            />
          </>
        )}
      </Loaded>
    </section>
  );
}
