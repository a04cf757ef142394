// Screen 3a: the email list with its filters, cursor paging, and live refresh of rows in flight.
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Domain, Email, Page } from '../api';
import { EMAIL_STATUSES, IN_FLIGHT, get, qs } from '../api';
import { Empty, Loaded, PageTitle, StatusBadge, Time, dayBound, field, useLoad } from '../ui';

interface Filters {
  status: string;
  domainId: string;
  tag: string;
  recipient: string;
  from: string;
  to: string;
  q: string;
}
const NONE: Filters = { status: '', domainId: '', tag: '', recipient: '', from: '', to: '', q: '' };

export function Emails() {
  const [filters, setFilters] = useState<Filters>(NONE);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const path = `/v1/emails${qs({
    status: filters.status,
    domainId: filters.domainId,
    tag: filters.tag,
    recipient: filters.recipient,
    from: dayBound(filters.from, false),
    to: dayBound(filters.to, true),
    q: filters.q,
    limit: 25,
    cursor,
  })}`;
  const [load, reload] = useLoad(() => get<Page<Email>>(path), path);
  const [domains] = useLoad(() => get<{ data: Domain[] }>('/v1/domains'), 'domains');

  // Rows still moving refresh in place every two seconds, without a reload (issue 19); the first
  // page also picks up new mail every five.
  const moving = load.state === 'ok' && load.data.data.some((e) => IN_FLIGHT.has(e.status));
  const first = cursor === undefined;
  useEffect(() => {
    if (!moving && !first) return;
    const t = setInterval(() => void reload(), moving ? 2000 : 5000);
    return () => clearInterval(t);
  }, [moving, first, path]);

  return (
    <section>
      <PageTitle>Emails</PageTitle>
      <form
        class="filters"
        aria-label="Filter emails"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const next = { ...NONE };
          for (const k of Object.keys(NONE) as (keyof Filters)[]) next[k] = field(f, k);
          setCursors([]);
          setFilters(next);
        }}
      >
        <label>
          Status
          <select name="status" value={filters.status}>
            <option value="">Any</option>
            {EMAIL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Domain
          <select name="domainId" value={filters.domainId}>
            <option value="">Any</option>
            {domains.state === 'ok'
              ? domains.data.data.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.domain}
                  </option>
                ))
              : null}
          </select>
        </label>
        <label>
          Tag <span class="muted">(name or name:value)</span>
          <input name="tag" value={filters.tag} />
        </label>
        <label>
          Recipient
          <input name="recipient" type="email" value={filters.recipient} />
        </label>
        <label>
          From day
          <input name="from" type="date" value={filters.from} />
        </label>
        <label>
          To day
          <input name="to" type="date" value={filters.to} />
        </label>
        <label>
          Search subject or recipient
          <input name="q" type="search" value={filters.q} />
        </label>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setCursors([]);
              setFilters(NONE);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <Loaded load={load}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No emails match. Send one with POST /v1/emails and it appears here.</Empty>
          ) : (
            <>
              <div class="table-wrap" tabIndex={0}>
                <table class="list" data-live={moving ? 'yes' : 'no'}>
                  <caption class="sr-only">Emails, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Status</th>
                      <th scope="col">Subject</th>
                      <th scope="col">To</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((e) => (
                      <tr key={e.id} data-email={e.id}>
                        <td>
                          <StatusBadge status={e.status} scheduledAt={e.scheduledAt} />
                        </td>
                        <td>
                          <Link href={`/emails/${e.id}`}>{e.subject || '(no subject)'}</Link>
                        </td>
                        <td>{e.recipients.map((r) => r.email).join(', ')}</td>
                        <td>
                          <Time iso={e.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div class="pager">
                <button
                  type="button"
                  class="secondary"
                  disabled={cursors.length === 0}
                  onClick={() => setCursors(cursors.slice(0, -1))}
                >
                  Newer
                </button>
                <button
                  type="button"
                  class="secondary"
                  disabled={!page.hasMore || !page.nextCursor}
                  onClick={() => page.nextCursor && setCursors([...cursors, page.nextCursor])}
                >
                  Older
                </button>
              </div>
            </>
          )
        }
      </Loaded>
    </section>
  );
}
