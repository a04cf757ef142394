// Deleting a domain (issue 29 item 8): one that has sent only test mail goes, with its test
// messages; one with live history answers 409 DOMAIN_HAS_HISTORY, and the screen then offers what
// to do instead, each as an action where the API has one (docs/domains.md, DELETE and sending
// history): turn receiving off, revoke the keys held to it, take its verification away by removing
// its records and checking DNS, or keep it.
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { ApiKeyList, Domain, Verification } from '../api';
import { ApiError, del, get, patch } from '../api';
import { ErrorBox, useAction, useLoad } from '../ui';

export function DeleteDomain(props: {
  d: Domain;
  path: string;
  reload: () => Promise<void>;
  verifyNow: () => Promise<Verification>;
}) {
  const { d, path } = props;
  const remove = useAction();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [, navigate] = useLocation();
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete this domain</h2>
      <p class="muted">
        A domain that has sent only test mail (or none) is deleted with its DKIM key and its test messages.
        One that has sent live mail stays: its messages and statistics refer to it.
      </p>
      <div class="actions">
        <button
          type="button"
          class="danger"
          disabled={remove.busy}
          onClick={() =>
            void remove.run(async () => {
              if (
                !window.confirm(
                  `Delete ${d.domain}? Its DKIM key is destroyed, and any test-mode messages from it go with it.`,
                )
              )
                return;
              try {
                await del(path);
              } catch (err) {
                if (err instanceof ApiError && err.body.code === 'DOMAIN_HAS_HISTORY') {
                  setRefusal(err.body.message);
                  return;
                }
                throw err;
              }
              navigate('/domains');
            })
          }
        >
          Delete domain
        </button>
      </div>
      {remove.error ? <ErrorBox message={remove.error} /> : null}
      {refusal ? (
        <Instead
          d={d}
          path={path}
          message={refusal}
          reload={props.reload}
          verifyNow={props.verifyNow}
          onKeep={() => setRefusal(null)}
        />
      ) : null}
    </section>
  );
}

/** What to do with a domain that cannot be deleted, each step an action where the API offers one. */
function Instead(props: {
  d: Domain;
  path: string;
  message: string;
  reload: () => Promise<void>;
  verifyNow: () => Promise<Verification>;
  onKeep: () => void;
}) {
  const { d } = props;
  const [keys, reloadKeys] = useLoad(() => get<ApiKeyList>('/v1/api-keys'), 'api-keys:domain-delete');
  const act = useAction();
  const [done, setDone] = useState<string | null>(null);
  const live = keys.state === 'ok' ? keys.data.data.filter((k) => k.revokedAt === null) : [];
  const held = live.filter((k) => k.domainId === d.id);
  const everywhere = live.filter((k) => k.domainId === null);
  return (
    <div class="card" role="region" aria-labelledby="instead-title" data-card="delete-refused">
      <h3 id="instead-title">{d.domain} cannot be deleted: it has sent live mail</h3>
      <p role="alert">{props.message}.</p>
      <p>What you can do instead:</p>
      <ol>
        {d.receiveEnabled ? (
          <li>
            Stop receiving mail for it.{' '}
            <button
              type="button"
              class="small"
              disabled={act.busy}
              onClick={() =>
                void act.run(async () => {
                  await patch(props.path, { receiveEnabled: false });
                  await props.reload();
                  setDone(`Receiving is off: this server now refuses mail for ${d.domain}.`);
                })
              }
            >
              Turn receiving off
            </button>
          </li>
        ) : null}
        <li>
          Revoke the API keys that send from it.{' '}
          {keys.state === 'error' ? <ErrorBox message={keys.error} /> : null}
          {keys.state !== 'ok' ? null : held.length === 0 ? (
            'No key is held to this domain alone.'
          ) : (
            <ul>
              {held.map((k) => (
                <li key={k.id}>
                  {k.name} <span class="mono">{k.keyPrefix}…</span>{' '}
                  <button
                    type="button"
                    class="small danger"
                    disabled={act.busy}
                    onClick={() =>
                      void act.run(async () => {
                        if (!window.confirm(`Revoke “${k.name}”? Servers using it stop sending at once.`))
                          return;
                        await del(`/v1/api-keys/${k.id}`);
                        await reloadKeys();
                        setDone(`“${k.name}” is revoked.`);
                      })
                    }
                  >
                    Revoke {k.name}
                  </button>
                </li>
              ))}
            </ul>
          )}{' '}
          {everywhere.length > 0
            ? `${everywhere.length === 1 ? 'One key' : `${everywhere.length} keys`} may send from every domain, this one included: `
            : ''}
          {everywhere.length > 0 ? <Link href="/api-keys">review them on API keys</Link> : null}
          {everywhere.length > 0 ? ' (revoking one stops it for your other domains too).' : null}
        </li>
        <li>
          Take its verification away: remove its SPF and DKIM records at your DNS provider, then{' '}
          <button
            type="button"
            class="small secondary"
            disabled={act.busy}
            onClick={() =>
              void act.run(async () => {
                const v = await props.verifyNow();
                setDone(
                  v.verified
                    ? `${d.domain} still verifies: its SPF and DKIM records are still published.`
                    : `${d.domain} is now ${v.status}: it refuses mail until it verifies again.`,
                );
              })
            }
          >
            Check DNS now
          </button>{' '}
          — the failing check makes it <code>FAILED</code>, and it refuses mail until verified again.
        </li>
        <li>
          Or keep it as it is: its history stays readable under Emails.{' '}
          <button type="button" class="small secondary" onClick={props.onKeep}>
            Keep {d.domain}
          </button>
        </li>
      </ol>
      {act.error ? <ErrorBox message={act.error} /> : null}
      {done ? (
        <p class="ok" role="status">
          {done}
        </p>
      ) : null}
    </div>
  );
}
