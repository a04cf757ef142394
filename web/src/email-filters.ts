// The email list's filters as the URL carries them (issue 29 item 11): `/app/emails?status=bounced&q=…`
// is the list a bookmark, a reload or Back shows; and the views saved from them, per user.

export interface Filters {
  readonly status: string;
  readonly domainId: string;
  readonly tag: string;
  readonly recipient: string;
  /** Days as a date input gives them (`2026-11-01`), read in the browser's zone. */
  readonly from: string;
  readonly to: string;
  readonly q: string;
}

export const FILTER_KEYS: readonly (keyof Filters)[] = [
  'status',
  'domainId',
  'tag',
  'recipient',
  'from',
  'to',
  'q',
];
export const NO_FILTERS: Filters = {
  status: '',
  domainId: '',
  tag: '',
  recipient: '',
  from: '',
  to: '',
  q: '',
};

/** The filters of a query string (`?status=bounced`); unknown parameters are ignored. */
export function filtersOf(search: string): Filters {
  const p = new URLSearchParams(search);
  const f: Record<keyof Filters, string> = { ...NO_FILTERS };
  for (const k of FILTER_KEYS) f[k] = (p.get(k) ?? '').trim();
  return f;
}

/** The query string of the set filters, in a fixed order ('' for none), so equal filters give equal URLs. */
export function searchOf(f: Filters): string {
  const p = new URLSearchParams();
  for (const k of FILTER_KEYS) if (f[k]) p.set(k, f[k]);
  const s = p.toString();
  return s ? `?${s}` : '';
}

// The list's last query string, for the detail's way back (`← Emails`, Escape, u): per tab, so a
// reloaded detail still goes back to the filtered list it was opened from.
const LAST_LIST = 'mailroom.emails.lastSearch';

export function rememberListSearch(search: string): void {
  try {
    sessionStorage.setItem(LAST_LIST, search);
  } catch {
    /* storage refused (private mode): the way back is the unfiltered list */
  }
}

/** The list as it was last shown in this tab: `/emails` with its filters. */
export function listHref(): string {
  let search = '';
  try {
    search = sessionStorage.getItem(LAST_LIST) ?? '';
  } catch {
    /* as above */
  }
  return `/emails${searchOf(filtersOf(search))}`;
}

/** A named set of filters, kept in this browser's localStorage (docs/dashboard.md). */
export interface SavedView {
  readonly name: string;
  /** The query string the view stands for (`?status=bounced`). */
  readonly search: string;
}

const viewsKey = (userId: string) => `mailroom.emails.views.${userId}`;

export function loadViews(userId: string): SavedView[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(viewsKey(userId)) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((v: unknown) => {
      if (typeof v !== 'object' || v === null) return [];
      const { name, search } = v as { name?: unknown; search?: unknown };
      return typeof name === 'string' && typeof search === 'string'
        ? [{ name, search: searchOf(filtersOf(search)) }]
        : [];
    });
  } catch {
    return [];
  }
}

/** Saves the views, sorted by name; a view saved under an existing name replaces it. */
export function storeViews(userId: string, views: readonly SavedView[]): SavedView[] {
  const byName = new Map(views.map((v) => [v.name, v]));
  const sorted = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  try {
    localStorage.setItem(viewsKey(userId), JSON.stringify(sorted));
  } catch {
    /* storage refused: the views last for this page only */
  }
  return sorted;
}
