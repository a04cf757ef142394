// Saved views of the email list (issue 29 item 11): a name for the filters in the URL, kept in
// this browser's localStorage per user (docs/dashboard.md); each view is a link to its list.
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Me } from '../api';
import { get } from '../api';
import type { SavedView } from '../email-filters';
import { loadViews, storeViews } from '../email-filters';
import { field, useLoad } from '../ui';

export function SavedViews(props: { search: string }) {
  const [me] = useLoad(() => get<Me>('/v1/auth/me'), 'me');
  const userId = me.state === 'ok' ? me.data.id : undefined;
  const [views, setViews] = useState<readonly SavedView[]>([]);
  useEffect(() => {
    if (userId) setViews(loadViews(userId));
  }, [userId]);
  if (!userId) return null;

  const save = (next: readonly SavedView[]) => setViews(storeViews(userId, next));
  return (
    <section class="saved-views" aria-labelledby="saved-views-title">
      <h2 id="saved-views-title">Saved views</h2>
      {views.length === 0 ? (
        <p class="muted">None yet: apply some filters, name them below and save.</p>
      ) : (
        <ul>
          {views.map((v) => (
            <li key={v.name}>
              <Link href={`/emails${v.search}`} aria-current={v.search === props.search ? 'true' : undefined}>
                {v.name}
              </Link>
              <button
                type="button"
                class="small secondary"
                aria-label={`Delete the view ${v.name}`}
                onClick={() => save(views.filter((w) => w.name !== v.name))}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="inline-form"
        aria-label="Save a view"
        onSubmit={(e) => {
          e.preventDefault();
          const name = field(new FormData(e.currentTarget), 'name');
          if (!name) return;
          save([...views.filter((v) => v.name !== name), { name, search: props.search }]);
          e.currentTarget.reset();
        }}
      >
        <label>
          Name for the current filters
          <input name="name" required maxLength={60} />
        </label>
        <button type="submit" class="secondary">
          Save view
        </button>
      </form>
    </section>
  );
}
