// Screen 7: suppressions: search, add, remove; the origin and the email that caused it.
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Suppression, SuppressionPage } from '../api';
import { del, enumValues, get, post, qs } from '../api';
import { CursorPager, ListTable, useCursors } from '../list';
import { Badge, Empty, ErrorBox, Loaded, PageTitle, Time, useAction, useLoad, field } from '../ui';

const TYPES = enumValues<Suppression['type']>({
  hard_bounce: true,
  soft_bounce: true,
  complaint: true,
  manual: true,
  unsubscribe: true,
});

export function Suppressions() {
  const [search, setSearch] = useState({ q: '', type: '' });
  const cursors = useCursors();
  const path = `/v1/suppressions${qs({ ...search, limit: 25, cursor: cursors.cursor })}`;
  const [load, reload] = useLoad(() => get<SuppressionPage>(path), path);
  const action = useAction();
  return (
    <section>
      <PageTitle>Suppressions</PageTitle>
      <form
        class="filters"
        aria-label="Search suppressions"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          cursors.reset();
          setSearch({ q: field(f, 'q'), type: field(f, 'type') });
        }}
      >
        <label>
          Address contains
          <input name="q" type="search" />
        </label>
        <label>
          Type
          <select name="type">
            <option value="">Any</option>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <div class="actions">
          <button type="submit">Search</button>
        </div>
      </form>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const f = new FormData(form);
          void action.run(async () => {
            await post('/v1/suppressions', {
              email: field(f, 'add'),
              type: 'manual',
              reason: field(f, 'reason') || undefined,
            });
            form.reset();
            await reload();
          });
        }}
      >
        <label>
          Suppress an address
          <input name="add" type="email" required />
        </label>
        <label>
          Reason
          <input name="reason" />
        </label>
        <button type="submit" disabled={action.busy}>
          Add
        </button>
      </form>
      {action.error ? <ErrorBox message={action.error} /> : null}
      <Loaded load={load}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No suppressed addresses. Hard bounces and complaints are added here automatically.</Empty>
          ) : (
            <>
              <ListTable
                caption="Suppressed addresses"
                columns={['Address', 'Origin', 'Reason', 'Caused by', 'Since']}
                actions
              >
                {page.data.map((s) => (
                  <tr key={s.id} data-suppression={s.email}>
                    <td>{s.email}</td>
                    <td>
                      <Badge value={s.type} tone="neutral" />
                    </td>
                    <td class="mono">{s.reason ?? '—'}</td>
                    <td>
                      {s.sourceEmailId ? <Link href={`/emails/${s.sourceEmailId}`}>the email</Link> : '—'}
                    </td>
                    <td>
                      <Time iso={s.createdAt} />
                    </td>
                    <td>
                      <button
                        type="button"
                        class="small danger"
                        aria-label={`Remove ${s.email}`}
                        onClick={() =>
                          void action.run(async () => {
                            if (!window.confirm(`Remove ${s.email}? Mail to it will be sent again.`)) return;
                            await del(`/v1/suppressions/${s.id}`);
                            await reload();
                          })
                        }
                      >
                        Remove
                      </button>
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
