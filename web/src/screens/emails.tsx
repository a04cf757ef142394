// Screen 3a: the email list with its filters in the URL (a bookmark, a reload and Back show the
// same list), how many match, saved views, cursor paging, keyboard shortcuts, and live refresh
// of rows in flight.
import { useEffect, useRef } from 'preact/hooks';
import { Link, useLocation, useSearch } from 'wouter-preact';
import type { DomainList, EmailPage } from '../api';
import { EMAIL_STATUSES, IN_FLIGHT, get, qs } from '../api';
import type { Filters } from '../email-filters';
import { FILTER_KEYS, NO_FILTERS, filtersOf, rememberListSearch, searchOf } from '../email-filters';
import { CursorPager, ListTable, useCursors } from '../list';
import { Shortcuts } from '../shortcuts';
import { Badge, Empty, Loaded, PageTitle, StatusBadge, Time, dayBound, field, useLoad } from '../ui';
import { SavedViews } from './email-views';

const SEARCH_ID = 'email-search';

export function Emails() {
  const [, navigate] = useLocation();
  // The URL is the filters' one home: the form shows them and Apply pushes new ones (Back undoes it).
  const search = searchOf(filtersOf(useSearch()));
  const filters = filtersOf(search);
  useEffect(() => rememberListSearch(search), [search]);
  const cursors = useCursors(search);
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
    total: 1,
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

  // The fields are the browser's own (not re-set on every refresh, which would undo typing):
  // they are set from the URL when it changes, and when the domain options arrive.
  const form = useRef<HTMLFormElement>(null);
  const domainsLoaded = domains.state === 'ok';
  useEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    for (const k of FILTER_KEYS) {
      const el = elements.namedItem(k);
      if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) el.value = filters[k];
    }
  }, [search, domainsLoaded]);

  const show = (next: Filters) => {
    const to = searchOf(next);
    if (to === search) cursors.reset();
    else navigate(`/emails${to}`);
  };

  return (
    <section>
      <PageTitle>Emails</PageTitle>
      <Shortcuts
        shortcuts={[
          { keys: ['j'], does: 'Highlight the next email', run: () => moveRow(1) },
          { keys: ['k'], does: 'Highlight the previous email', run: () => moveRow(-1) },
          { keys: ['Enter'], does: 'Open the highlighted email' },
          {
            keys: ['/'],
            does: 'Search subject or recipient',
            run: () => document.getElementById(SEARCH_ID)?.focus(),
          },
        ]}
      />
      <form
        ref={form}
        class="filters"
        aria-label="Filter emails"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const next: Record<keyof Filters, string> = { ...NO_FILTERS };
          for (const k of FILTER_KEYS) next[k] = field(f, k);
          show(next);
        }}
      >
        <label>
          Status
          <select name="status">
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
          <select name="domainId">
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
          <input name="tag" />
        </label>
        <label>
          Recipient
          <input name="recipient" type="email" />
        </label>
        <label>
          From day
          <input name="from" type="date" />
        </label>
        <label>
          To day
          <input name="to" type="date" />
        </label>
        <label>
          Search subject or recipient
          <input name="q" type="search" id={SEARCH_ID} />
        </label>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <button type="button" class="secondary" onClick={() => show(NO_FILTERS)}>
            Clear
          </button>
        </div>
      </form>
      <SavedViews search={search} />
      <Loaded load={load}>
        {(page) => (
          <>
            <Total page={page} />
            {page.data.length === 0 ? (
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
                        {e.mode === 'test' ? (
                          <>
                            {' '}
                            <Badge value="test · captured" tone="warn" />
                          </>
                        ) : null}
                      </td>
                      <td>
                        <Link href={`/emails/${e.id}`} state={{ fromList: true }} class="row-link">
                          {e.subject || '(no subject)'}
                        </Link>
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
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** "1,234 emails", or "10,000+ emails" past the API's bound (docs/api.md, `total=1`). */
function Total(props: { page: EmailPage }) {
  const total = props.page.total;
  if (!total) return null;
  const n = `${total.count.toLocaleString()}${total.capped ? '+' : ''}`;
  return (
    <p class="total" role="status" data-total={total.count} data-capped={total.capped ? 'yes' : 'no'}>
      {n} {total.count === 1 && !total.capped ? 'email' : 'emails'}
    </p>
  );
}

/**
 * j/k: the focus moves to the next or previous row's link (the highlighted row is the one holding
 * the focus, so Enter opens it and a screen reader reads it); from none, to the first or last.
 */
function moveRow(step: 1 | -1): void {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('tr[data-email] a.row-link')];
  if (links.length === 0) return;
  const at = links.findIndex((a) => a === document.activeElement);
  const next =
    at === -1 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + step));
  const link = links[next];
  link?.focus();
  link?.scrollIntoView({ block: 'nearest' });
}
