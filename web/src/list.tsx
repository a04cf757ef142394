// The paged lists (emails, inbound, suppressions, the audit log): one table and one cursor pager.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Paging } from './api';

/** The cursors walked so far: the last is the page shown, none is the first (newest) page. */
export interface Cursors {
  /** The `cursor` to ask for; undefined on the first page. */
  readonly cursor: string | undefined;
  readonly trail: readonly string[];
  readonly set: (trail: readonly string[]) => void;
  /** Back to the first page: the filters changed. */
  readonly reset: () => void;
}

/**
 * The pages walked; with `key` (the list's filters), a new key starts again from the first page
 * in the same render, so no page of the old filters' cursor is asked for with the new filters.
 */
export function useCursors(key = ''): Cursors {
  const [walked, setWalked] = useState<{ key: string; trail: readonly string[] }>({ key, trail: [] });
  const trail = walked.key === key ? walked.trail : [];
  const set = (next: readonly string[]) => setWalked({ key, trail: next });
  return { cursor: trail[trail.length - 1], trail, set, reset: () => set([]) };
}

/** Newer goes back one page, Older follows the page's `nextCursor`. */
export function CursorPager(props: { cursors: Cursors; page: Paging }) {
  const { cursors, page } = props;
  return (
    <div class="pager">
      <button
        type="button"
        class="secondary"
        disabled={cursors.trail.length === 0}
        onClick={() => cursors.set(cursors.trail.slice(0, -1))}
      >
        Newer
      </button>
      <button
        type="button"
        class="secondary"
        disabled={!page.hasMore || !page.nextCursor}
        onClick={() => page.nextCursor && cursors.set([...cursors.trail, page.nextCursor])}
      >
        Older
      </button>
    </div>
  );
}

/**
 * A list's table in its scrolling wrapper (focusable, so a keyboard can scroll it), with the
 * caption a screen reader announces and a header cell per column; the rows are the children.
 */
export function ListTable(props: {
  caption: string;
  columns: readonly string[];
  /** A last column of row buttons, its heading for screen readers only. */
  actions?: boolean;
  class?: string;
  /** `data-live` on the table: whether its rows are refreshing (the email list). */
  live?: boolean;
  children: ComponentChildren;
}) {
  const live = props.live === undefined ? undefined : props.live ? 'yes' : 'no';
  return (
    <div class="table-wrap" tabIndex={0}>
      <table class={props.class} data-live={live}>
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {props.actions ? (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
