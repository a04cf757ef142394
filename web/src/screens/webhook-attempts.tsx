// The attempt log of one webhook (issue 29 item 10): per attempt the request sent (the headers,
// the signatures among them, and the raw body they sign) and the answer (status, error, the
// response's first bytes, duration), test traffic marked (item 6), and a redeliver button.
import type { WebhookAttempt } from '../api';
import { Badge, Empty, Time } from '../ui';

/** The dashboard's own test event (POST /v1/webhooks/{id}/test). */
const TEST_EVENT = 'webhook.test';

/** Test traffic in the words of the email list: test-mode mail is captured, never delivered. */
function TestMark(props: { attempt: WebhookAttempt }) {
  if (props.attempt.event === TEST_EVENT) return <Badge value="test event" tone="neutral" />;
  if (props.attempt.mode === 'test') return <Badge value="test · captured" tone="warn" />;
  return null;
}

/** The headers as an HTTP request writes them, one `Name: value` a line. */
function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function Outcome(props: { attempt: WebhookAttempt }) {
  const a = props.attempt;
  if (a.httpStatus !== null) return <span>HTTP {a.httpStatus}</span>;
  return <span>No response: {a.error ?? 'unknown error'}</span>;
}

function AttemptCard(props: {
  attempt: WebhookAttempt;
  canRedeliver: boolean;
  busy: boolean;
  onRedeliver: (a: WebhookAttempt) => void;
}) {
  const a = props.attempt;
  // No answer and no timeout: a refused address, a failed lookup, connect or TLS, all before the request went out.
  const notSent = a.httpStatus === null && a.error !== null && !/timed out/.test(a.error);
  return (
    <li class="card attempt" data-attempt={a.id} data-delivery={a.deliveryId}>
      <p class="attempt-head">
        <Badge value={a.succeeded ? 'ok' : 'failed'} /> <strong>{a.event}</strong> <TestMark attempt={a} />{' '}
        <Outcome attempt={a} />
      </p>
      <p class="muted small-text">
        Attempt {a.attempt} · <Time iso={a.createdAt} /> · {a.durationMs} ms · delivery{' '}
        <span class="mono">{a.deliveryId}</span>
        {a.redeliveryOf ? (
          <>
            {' '}
            · redelivery of <span class="mono">{a.redeliveryOf}</span>
          </>
        ) : null}
      </p>
      <details>
        <summary>Request</summary>
        {a.request ? (
          <>
            {notSent ? (
              <p>
                Not sent: the attempt failed before the request went out. This is what it would have sent.
              </p>
            ) : null}
            <p class="small-text">
              Headers (X-Mail-Signature and webhook-signature are valid for this body and timestamp only; the
              signing secret is never shown):
            </p>
            <pre class="headers" tabIndex={0}>
              {headerLines(a.request.headers)}
            </pre>
            <p class="small-text">Body, as signed:</p>
            <pre class="headers" tabIndex={0}>
              {a.request.body}
            </pre>
          </>
        ) : (
          <p>Not kept: this attempt was made before Mailroom recorded requests.</p>
        )}
      </details>
      <details>
        <summary>Response</summary>
        <p>
          <Outcome attempt={a} /> after {a.durationMs} ms
          {a.httpStatus !== null && a.error && a.error !== `HTTP ${a.httpStatus}` ? <> ({a.error})</> : null}
        </p>
        {a.responseExcerpt !== null ? (
          <>
            <p class="small-text">Body (first 512 bytes):</p>
            <pre class="excerpt" tabIndex={0}>
              {a.responseExcerpt === '' ? '(empty)' : a.responseExcerpt}
            </pre>
          </>
        ) : null}
      </details>
      {props.canRedeliver ? (
        <button
          type="button"
          class="small secondary"
          disabled={props.busy}
          onClick={() => props.onRedeliver(a)}
        >
          Redeliver
        </button>
      ) : null}
    </li>
  );
}

export function AttemptLog(props: {
  attempts: readonly WebhookAttempt[];
  enabled: boolean;
  busy: boolean;
  onRedeliver: (a: WebhookAttempt) => void;
}) {
  if (props.attempts.length === 0) return <Empty>No attempts yet.</Empty>;
  return (
    <>
      {props.enabled ? null : <p class="muted">Re-enable the webhook to redeliver its attempts.</p>}
      <ul class="cards attempts" aria-label="Delivery attempts, newest first">
        {props.attempts.map((a) => (
          <AttemptCard
            key={a.id}
            attempt={a}
            canRedeliver={props.enabled}
            busy={props.busy}
            onRedeliver={props.onRedeliver}
          />
        ))}
      </ul>
    </>
  );
}
