// Screen 3b: one email: recipients, timeline, headers, sandboxed preview, raw, cancel,
// and "why is this still queued?" in plain words.
import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { EmailDetail as EmailDetailView, SuppressionPage } from '../api';
import { IN_FLIGHT, del, get, post } from '../api';
import { listHref } from '../email-filters';
import { Shortcuts } from '../shortcuts';
import { Badge, ErrorBox, Loaded, PageTitle, StatusBadge, Time, useAction, useLoad } from '../ui';

export function EmailDetail(props: { id: string }) {
  const path = `/v1/emails/${encodeURIComponent(props.id)}`;
  const [load, reload] = useLoad(() => get<EmailDetailView>(path), path);
  const cancel = useAction();
  const moving = load.state === 'ok' && IN_FLIGHT.has(load.data.status);
  useEffect(() => {
    if (!moving) return;
    const t = setInterval(() => void reload(), 2000);
    return () => clearInterval(t);
  }, [moving, path]);
  const [, navigate] = useLocation();
  // Back to the list with its filters: opened from the list, the browser's Back (the same
  // history entry, not a new one); opened from elsewhere (a bookmark), the list last shown in this tab.
  const toList = () => {
    if ((history.state as { fromList?: unknown } | null)?.fromList === true) history.back();
    else navigate(listHref());
  };

  return (
    <section>
      <div class="detail-nav">
        <Link href={listHref()}>← Emails</Link>
        <Shortcuts
          shortcuts={[{ keys: ['Escape', 'u'], does: 'Back to the list, with its filters', run: toList }]}
        />
      </div>
      <Loaded load={load}>
        {(email) => (
          <>
            <PageTitle>{email.subject || '(no subject)'}</PageTitle>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={email.status} scheduledAt={email.scheduledAt} />
                {email.mode === 'test' ? (
                  <>
                    {' '}
                    <Badge value="test · captured" tone="warn" />{' '}
                    <span class="muted">sent with a test key: captured here, never delivered</span>
                  </>
                ) : null}
              </dd>
              <dt>From</dt>
              <dd>{email.from}</dd>
              <dt>Created</dt>
              <dd>
                <Time iso={email.createdAt} />
              </dd>
              <dt>Scheduled</dt>
              <dd>
                <Time iso={email.scheduledAt} />
              </dd>
              <dt>Delivered</dt>
              <dd>
                <Time iso={email.deliveredAt} />
              </dd>
              <dt>Message-ID</dt>
              <dd class="mono">{email.messageId}</dd>
              <dt>Tags</dt>
              <dd>
                {email.tags && Object.keys(email.tags).length > 0
                  ? Object.entries(email.tags).map(([k, v]) => (
                      <Badge key={k} value={`${k}:${String(v)}`} tone="neutral" />
                    ))
                  : '—'}
              </dd>
            </dl>
            <div class="actions">
              <a class="button secondary" href={`${path}/raw`} download={`${email.id}.eml`}>
                Download raw (.eml)
              </a>
              {email.status === 'queued' && email.scheduledAt ? (
                <button
                  type="button"
                  disabled={cancel.busy}
                  onClick={() =>
                    void cancel.run(async () => {
                      if (!window.confirm('Cancel this scheduled email?')) return;
                      await post(`${path}/cancel`);
                      await reload();
                    })
                  }
                >
                  Cancel scheduled email
                </button>
              ) : null}
            </div>
            {cancel.error ? <ErrorBox message={cancel.error} /> : null}
            <WhyQueued email={email} />
            <WhyBounced email={email} />
            <h2>Recipients</h2>
            <div class="table-wrap" tabIndex={0}>
              <table>
                <caption class="sr-only">Recipients and their last SMTP reply</caption>
                <thead>
                  <tr>
                    <th scope="col">Address</th>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Last SMTP reply</th>
                  </tr>
                </thead>
                <tbody>
                  {email.recipients.map((r) => (
                    <tr key={`${r.type}:${r.email}`}>
                      <td>{r.email}</td>
                      <td>{r.type}</td>
                      <td>
                        <Badge value={r.status} />
                      </td>
                      <td class="mono">{r.smtpResponse ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h2>Timeline</h2>
            <ol class="timeline" aria-label="Events">
              {(email.events ?? []).map((ev, i) => (
                <li key={i}>
                  <Time iso={ev.createdAt} /> <Badge value={ev.type} tone="neutral" />
                  {ev.recipient ? <span> {ev.recipient}</span> : null}
                  {ev.message ? <span class="mono"> {ev.message}</span> : null}
                  {ev.tls ? <span class="muted"> ({ev.tls === 'plaintext' ? 'no TLS' : ev.tls})</span> : null}
                  {ev.node ? <span class="muted"> · node {ev.node}</span> : null}
                </li>
              ))}
            </ol>
            <Attachments email={email} />
            <Preview base={path} parts={email.parts} />
            <h2>Headers</h2>
            <pre class="headers">
              {email.headers
                ? Object.entries(email.headers)
                    .map(([k, v]) => `${k}: ${String(v)}`)
                    .join('\n')
                : '(none besides the standard ones)'}
            </pre>
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The answer to the most frequent question: the next retry, attempts, last deferral in words. */
function WhyQueued(props: { email: EmailDetailView }) {
  const d = props.email.delivery;
  if (!IN_FLIGHT.has(props.email.status) || !d) return null;
  return (
    <div class="card why" aria-labelledby="why-title">
      <h2 id="why-title">Why is this still {props.email.status}?</h2>
      <p>{d.summary}</p>
      <p>
        {d.attempts === 0
          ? 'No delivery attempt yet.'
          : `${d.attempts} delivery attempt${d.attempts === 1 ? '' : 's'} so far.`}{' '}
        {d.nextAttemptAt ? (
          <>
            Next attempt: <Time iso={d.nextAttemptAt} />.
          </>
        ) : null}
      </p>
      {d.lastDeferral ? (
        <p>
          Last deferral (<Time iso={d.lastDeferral.at} />
          ): {d.lastDeferral.explanation} <span class="mono">{d.lastDeferral.reply}</span>
        </p>
      ) : null}
    </div>
  );
}

type Bounce = NonNullable<EmailDetailView['delivery']>['bounces'][number];

/** Why each bounced recipient bounced, in words, and the suppression a hard bounce left. */
function WhyBounced(props: { email: EmailDetailView }) {
  const bounces = props.email.delivery?.bounces ?? [];
  if (bounces.length === 0) return null;
  return (
    <div class="card why" aria-labelledby="bounced-title">
      <h2 id="bounced-title">Why it bounced</h2>
      {bounces.map((b) => (
        <BounceReading key={b.recipient} bounce={b} live={props.email.mode === 'live'} />
      ))}
    </div>
  );
}

/** One recipient's bounce: the reading, and for live mail its suppression, removable from here. */
function BounceReading(props: { bounce: Bounce; live: boolean }) {
  const { bounce, live } = props;
  const path = `/v1/suppressions?email=${encodeURIComponent(bounce.recipient)}`;
  const [load, reload] = useLoad<SuppressionPage | null>(
    () => (live ? get<SuppressionPage>(path) : Promise.resolve(null)),
    `${live}:${path}`,
  );
  const lift = useAction();
  const suppression = load.state === 'ok' ? load.data?.data[0] : undefined;
  return (
    <div class="bounce" data-recipient={bounce.recipient}>
      <p>
        <strong>{bounce.recipient}</strong> <Badge value={`${bounce.kind} bounce`} tone="bad" />{' '}
        <span class="muted mono">{bounce.reason}</span>
      </p>
      <p>{bounce.explanation}</p>
      {suppression ? (
        <p>
          Suppressed since <Time iso={suppression.createdAt} /> ({suppression.type.replace('_', ' ')}).{' '}
          <button
            type="button"
            class="secondary"
            disabled={lift.busy}
            onClick={() =>
              void lift.run(async () => {
                if (!window.confirm(`Remove ${bounce.recipient}? Mail to it will be sent again.`)) return;
                await del(`/v1/suppressions/${encodeURIComponent(suppression.id)}`);
                await reload();
              })
            }
          >
            Remove the suppression
          </button>
        </p>
      ) : load.state === 'ok' && live && bounce.kind === 'hard' ? (
        <p class="muted">The address is not suppressed now: it was removed from your suppressions.</p>
      ) : null}
      {lift.error ? <ErrorBox message={lift.error} /> : null}
    </div>
  );
}

function kilobytes(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1048576).toFixed(1)} MB`;
}

/** The attachments sent with the message (names, types, sizes; the content is in the raw download). */
function Attachments(props: { email: EmailDetailView }) {
  const list = props.email.attachments ?? [];
  return (
    <>
      <h2>Attachments</h2>
      {list.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="attachments">
          {list.map((a, i) => (
            <li key={i}>
              <span class="mono">{a.filename}</span> <span class="muted">{a.contentType}</span> ·{' '}
              {kilobytes(a.sizeBytes)}
              {a.inline ? <Badge value="inline" tone="neutral" /> : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * Email HTML is hostile (issue 19): it renders in an iframe sandboxed without allow-scripts and
 * allow-same-origin, from an endpoint that sends its own CSP blocking remote loads unless asked.
 */
export function Preview(props: { base: string; parts?: { html: boolean; text: boolean } | undefined }) {
  // Only the parts the message has: a text-only message opens on its text, never on an error.
  const has = props.parts ?? { html: true, text: true };
  const [part, setPart] = useState<'html' | 'text'>(has.html || !has.text ? 'html' : 'text');
  const [remote, setRemote] = useState(false);
  if (!has.html && !has.text) {
    return (
      <div class="preview">
        <h2>Preview</h2>
        <p class="muted">
          No stored body to show (a message submitted over SMTP keeps only its raw form): download the raw
          message above to read it.
        </p>
      </div>
    );
  }
  return (
    <div class="preview">
      <h2>Preview</h2>
      <div class="actions" role="group" aria-label="Preview options">
        {has.html ? (
          <label class="inline">
            <input type="radio" name="part" checked={part === 'html'} onChange={() => setPart('html')} /> HTML
          </label>
        ) : null}
        {has.text ? (
          <label class="inline">
            <input type="radio" name="part" checked={part === 'text'} onChange={() => setPart('text')} /> Text
          </label>
        ) : null}
        {!has.html || !has.text ? (
          <span class="muted">{has.html ? 'No text part.' : 'Text only: the message has no HTML part.'}</span>
        ) : null}
        {part === 'html' ? (
          <label class="inline">
            <input type="checkbox" checked={remote} onChange={(e) => setRemote(e.currentTarget.checked)} />{' '}
            Load remote images
          </label>
        ) : null}
      </div>
      <iframe
        title="Message preview"
        sandbox=""
        referrerpolicy="no-referrer"
        src={`${props.base}/preview?part=${part}&remoteImages=${remote ? 1 : 0}`}
      />
    </div>
  );
}
