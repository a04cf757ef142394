// Screen 4: domains: add, the records to publish with a copy button each (none on a record that
// cannot work: MAIL_HOSTNAME no public name, said by the banner), verify with every
// check's code and next step, one-click unsubscribe, receiving (domain-receiving.tsx), a test
// email (domain-test-email.tsx), status history, delete or what to do instead (domain-delete.tsx).
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type {
  CheckResult,
  Domain,
  DomainList,
  DomainStatusChange,
  DomainStatusHistory,
  Verification,
} from '../api';
import { ApiError, get, patch, post } from '../api';
import { Badge, CopyButton, Empty, ErrorBox, Loaded, PageTitle, Time, useAction, useLoad } from '../ui';
import { DeleteDomain } from './domain-delete';
import { Receiving } from './domain-receiving';
import { TestEmail } from './domain-test-email';
import { MailHostnameCheck } from './mail-hostname';

/**
 * What people paste into "Domain to send from": a URL (`https://Dash.Example.com/path`), an
 * address (`hello@example.com`), a name with a port or a trailing dot. The domain in it, lower
 * case; the API judges the rest (INVALID_DOMAIN).
 */
export function domainFromInput(value: string): string {
  const withoutScheme = value.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const host = (withoutScheme.split(/[/?#]/)[0] ?? '').replace(/^.*@/, '').replace(/:\d*$/, '');
  return host.replace(/\.+$/, '').toLowerCase();
}

export function Domains() {
  const [load, reload] = useLoad(() => get<DomainList>('/v1/domains'), 'domains');
  const add = useAction();
  const [, navigate] = useLocation();
  return (
    <section>
      <PageTitle>Domains</PageTitle>
      <MailHostnameCheck />
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const input = e.currentTarget.elements.namedItem('domain') as HTMLInputElement;
          void add.run(async () => {
            input.value = domainFromInput(input.value);
            const created = await post<Domain>('/v1/domains', { domain: input.value });
            await reload();
            navigate(`/domains/${created.id}`);
          });
        }}
      >
        <label>
          Domain to send from
          <input name="domain" placeholder="mail.example.com" required />
        </label>
        <button type="submit" disabled={add.busy}>
          Add domain
        </button>
      </form>
      {add.error ? <ErrorBox message={add.error} /> : null}
      <Loaded load={load}>
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No domains yet. Add the domain you send from; its DNS records appear next.</Empty>
          ) : (
            <div class="table-wrap" tabIndex={0}>
              <table>
                <caption class="sr-only">Domains</caption>
                <thead>
                  <tr>
                    <th scope="col">Domain</th>
                    <th scope="col">Status</th>
                    <th scope="col">Last checked</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((d) => (
                    <tr key={d.id}>
                      <td>
                        <Link href={`/domains/${d.id}`}>{d.domain}</Link>
                      </td>
                      <td>
                        <Badge value={d.status} />
                      </td>
                      <td>
                        <Time iso={d.lastCheckedAt} />
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

const CHECKS: readonly (readonly [keyof Verification, string])[] = [
  ['spf', 'SPF'],
  ['dkim', 'DKIM'],
  ['dmarc', 'DMARC'],
  ['returnPath', 'Return path'],
  ['mx', 'MX (receiving)'],
];

export function DomainDetail(props: { id: string }) {
  const path = `/v1/domains/${encodeURIComponent(props.id)}`;
  const [load, reload] = useLoad(() => get<Domain>(path), path);
  const [history, reloadHistory] = useLoad(
    () => get<DomainStatusHistory>(`${path}/status-history`),
    `${path}/status-history`,
  );
  const [result, setResult] = useState<Verification | null>(null);
  const verify = useAction();
  const unsub = useAction();
  /** Verify DNS now: the result (also a failing one, carried in a 409's details) and the reloads. */
  const verifyNow = async (): Promise<Verification> => {
    let v: Verification;
    try {
      v = await post<Verification>(`${path}/verify`);
      setResult(v);
    } catch (err) {
      const held = err instanceof ApiError ? err.body.details?.verification : undefined;
      if (held) setResult(held as Verification);
      throw err;
    }
    await reload();
    await reloadHistory();
    return v;
  };
  return (
    <section>
      <p>
        <Link href="/domains">← Domains</Link>
      </p>
      <Loaded load={load}>
        {(d) => (
          <>
            <PageTitle>{d.domain}</PageTitle>
            <MailHostnameCheck />
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <Badge value={d.status} />
              </dd>
              <dt>Added (DKIM key created)</dt>
              <dd>
                <Time iso={d.createdAt} />
              </dd>
              <dt>Verified</dt>
              <dd>
                <Time iso={d.verifiedAt} />
              </dd>
              <dt>Last checked</dt>
              <dd>
                <Time iso={d.lastCheckedAt} />
              </dd>
            </dl>
            <h2>DNS records to publish</h2>
            <div class="table-wrap" tabIndex={0}>
              <table class="records cards">
                <caption class="sr-only">DNS records for {d.domain}</caption>
                <thead>
                  <tr>
                    <th scope="col">Purpose</th>
                    <th scope="col">Type</th>
                    <th scope="col">Name</th>
                    <th scope="col">Value</th>
                  </tr>
                </thead>
                <tbody>
                  {d.records.map((r) => (
                    <tr key={`${r.purpose}:${r.name}`}>
                      <td>
                        {r.purpose}
                        {r.purpose === 'mx' ? ' (receiving)' : r.required ? '' : ' (optional)'}
                      </td>
                      <td data-label="Type">{r.type}</td>
                      <td data-label="Name">
                        <span class="mono">{r.name}</span>{' '}
                        {r.usable ? <CopyButton value={r.name} label={`${r.purpose} name`} /> : null}
                      </td>
                      <td data-label="Value">
                        <span class="mono value">
                          {r.priority !== undefined ? `${r.priority} ` : ''}
                          {r.value}
                        </span>{' '}
                        {r.usable ? (
                          <CopyButton value={r.value} label={`${r.purpose} value`} />
                        ) : (
                          <p class="unusable">
                            <Badge value="unusable" tone="bad" /> Do not publish. {r.unusableReason}
                          </p>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p class="muted" data-note="mx">
              {d.receiveEnabled
                ? 'The mx record is for receiving: see Receiving mail below.'
                : 'No MX record: receiving is off. Turn it on under Receiving mail below and its MX record appears.'}
            </p>
            <div class="actions">
              <button
                type="button"
                disabled={verify.busy}
                onClick={() =>
                  void verify.run(async () => {
                    await verifyNow();
                  })
                }
              >
                {verify.busy ? 'Checking DNS…' : 'Verify DNS now'}
              </button>
            </div>
            {verify.error ? <ErrorBox message={verify.error} /> : null}
            {result ? <VerifyResult v={result} /> : null}
            <h2>One-click unsubscribe</h2>
            <label class="inline">
              <input
                type="checkbox"
                checked={d.unsubscribeLink}
                disabled={unsub.busy}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  void unsub.run(async () => {
                    await patch(path, { unsubscribeLink: on });
                    await reload();
                  });
                }}
              />{' '}
              Add a Mailroom-served one-click List-Unsubscribe (RFC 8058) to single-recipient mail without its
              own
            </label>
            {unsub.error ? <ErrorBox message={unsub.error} /> : null}
            <Receiving d={d} path={path} reload={reload} />
            <TestEmail d={d} path={path} />
            <h2>Status history</h2>
            <Loaded load={history}>
              {(h) =>
                h.data.length === 0 ? (
                  <Empty>No status changes yet.</Empty>
                ) : (
                  <StatusHistory changes={h.data} />
                )
              }
            </Loaded>
            <DeleteDomain d={d} path={path} reload={reload} verifyNow={verifyNow} />
          </>
        )}
      </Loaded>
    </section>
  );
}

function VerifyResult(props: { v: Verification }) {
  return (
    <div class="card" aria-live="polite">
      <h2>
        Verification: <Badge value={props.v.verified ? 'verified' : props.v.status.toLowerCase()} />
      </h2>
      <ul class="checks">
        {CHECKS.map(([key, label]) => {
          const c = props.v[key] as CheckResult | undefined;
          if (!c) return null;
          return (
            <li key={key}>
              <strong>{label}</strong> <Badge value={c.verified ? 'pass' : 'fail'} />
              {c.code ? <code> {c.code}</code> : null}
              {c.message ? <span> {c.message}</span> : null}
              {c.expected && !c.verified ? (
                <div class="muted">
                  Expected: <span class="mono">{c.expected}</span>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {props.v.nextSteps && props.v.nextSteps.length > 0 ? (
        <>
          <h3>Next steps</h3>
          <ol>
            {props.v.nextSteps.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}

const TRIGGER: Record<DomainStatusChange['trigger'], string> = {
  created: 'domain added',
  api: 'verification from the API or this screen',
  recheck: 'background re-check',
  migration: 'recorded at upgrade (time approximate)',
};

function StatusHistory(props: { changes: DomainStatusHistory['data'] }) {
  return (
    <div class="table-wrap" tabIndex={0}>
      <table>
        <caption class="sr-only">Status changes, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {props.changes.map((c, i) => (
            <tr key={`${c.at}:${i}`}>
              <td>
                <Time iso={c.at} />
              </td>
              <td>
                {c.from ? <Badge value={c.from} /> : null}
                {c.from ? ' → ' : ''}
                <Badge value={c.to} />
              </td>
              <td>
                {TRIGGER[c.trigger]}
                {c.checks
                  ? ` (${Object.entries(c.checks)
                      .filter(([, v]) => v !== 'pass')
                      .map(([k, v]) => `${k}: ${v}`)
                      .join(', ')})`.replace(' ()', '')
                  : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
