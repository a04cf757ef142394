// Screen 3a: the email list with its filters, cursor paging, and live refresh of rows in flight.
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { DomainList, EmailPage } from '../api';
import { EMAIL_STATUSES, IN_FLIGHT, get, qs } from '../api';
import { CursorPager, ListTable, useCursors } from '../list';
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
  const cursors = useCursors();
  const { cursor } = cursors;
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
  const [load, reload] = useLoad(() => get<EmailPage>(path), path);
  const [domains] = useLoad(() => get<DomainList>('/v1/domains'), 'domains');

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
          cursors.reset();
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
              cursors.reset();
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
              <ListTable
                caption="Emails, newest first"
                columns={['Status', 'Subject', 'To', 'Created']}
                class="list"
                live={moving}
              >
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
              </ListTable>
              <CursorPager cursors={cursors} page={page} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
