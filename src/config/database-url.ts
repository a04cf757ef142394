import path from 'node:path';

/** Which engine a DATABASE_URL names. */
export type DatabaseKind = 'sqlite' | 'postgres';

/** `postgres://` or `postgresql://` is a PostgreSQL server (issue 23); anything else a SQLite file. */
export function databaseKind(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//i.test(url.trim()) ? 'postgres' : 'sqlite';
}

/** The SQLite file a non-PostgreSQL URL names: `sqlite:<path>`, `file:<path>` or a bare path. */
export function sqliteFileOf(url: string): string {
  return path.resolve(url.replace(/^(sqlite|file):(\/\/)?/i, ''));
}

/** The URL with its password hidden, for logs and `ctl config`. */
export function redactDatabaseUrl(url: string): string {
  if (databaseKind(url) !== 'postgres') return url;
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    for (const key of ['password', 'sslkey', 'sslpassword'])
      if (u.searchParams.has(key)) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    return 'postgres://[unparsable URL]';
  }
}
