// Screen 7: suppressions: search, add, remove; the origin and the email that caused it.
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Page } from '../api';
import { del, get, post, qs } from '../api';
import { Badge, Empty, ErrorBox, Loaded, PageTitle, Time, useAction, useLoad, field } from '../ui';

interface Suppression {
  readonly id: string;
  readonly email: string;
  readonly type: string;
  readonly reason: string | null;
  readonly sourceEmailId: string | null;
  readonly createdAt: string;
}
const TYPES = ['hard_bounce', 'soft_bounce', 'complaint', 'manual', 'unsubscribe'];

export function Suppressions() {
  const [search, setSearch] = useState({ q: '', type: '' });
  const [cursors, setCursors] = useState<string[]>([]);
  const path = `/v1/suppressions${qs({ ...search, limit: 25, cursor: cursors[cursors.length - 1] })}`;
  const [load, reload] = useLoad(() => get<Page<Suppression>>(path), path);
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
          setCursors([]);
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
              <div class="table-wrap" tabIndex={0}>
                <table>
                  <caption class="sr-only">Suppressed addresses</caption>
                  <thead>
                    <tr>
                      <th scope="col">Address</th>
                      <th scope="col">Origin</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Caused by</th>
                      <th scope="col">Since</th>
                      <th scope="col">
                        <span class="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
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
                                if (!window.confirm(`Remove ${s.email}? Mail to it will be sent again.`))
                                  return;
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
