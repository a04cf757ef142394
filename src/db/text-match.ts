import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';
import { asciiLower, likeContains } from '../shared/text';

/**
 * `lower(column) LIKE pattern`, ignoring ASCII case only, alike on SQLite and PostgreSQL
 * (issue 23): SQLite's lower() folds A-Z only, and so does PostgreSQL's on our `collate "C"`
 * text columns, so the pattern is folded the same way (asciiLower) — a pattern lowered with
 * toLowerCase() would fold `É` to `é` and never match the `É` the column keeps. `pattern` is a
 * LIKE pattern whose literal parts went through likeEscape (backslash escapes).
 */
export function likeIgnoringCase(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${asciiLower(pattern)} escape '\\'`;
}

/** `column` contains `text` (free text: its `%`, `_` and `\` match themselves), ignoring ASCII case. */
export function containsIgnoringCase(column: string, text: string): RawBuilder<boolean> {
  return likeIgnoringCase(column, likeContains(text));
}
