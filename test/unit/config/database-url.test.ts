import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, databaseKind, redactDatabaseUrl, sqliteFileOf, sqlitePath } from '../../../src/config';

// Issue 23 item 1: DATABASE_URL names a SQLite file or a PostgreSQL server.

describe('DATABASE_URL', () => {
  it('names PostgreSQL by scheme and SQLite otherwise', () => {
    assert.equal(databaseKind('postgresql://db/mail'), 'postgres');
    assert.equal(databaseKind(' postgres://db/mail'), 'postgres');
    assert.equal(databaseKind('sqlite:/data/mail.db'), 'sqlite');
    assert.equal(sqliteFileOf('sqlite:///data/mail.db'), '/data/mail.db');
    assert.equal(sqliteFileOf('file:/data/mail.db'), '/data/mail.db');
  });

  it('gives the SQLite file only where there is one, and says what needed it', () => {
    assert.equal(sqlitePath({ databaseUrl: 'sqlite:/data/mail.db' }), '/data/mail.db');
    assert.throws(
      () => sqlitePath({ databaseUrl: 'postgres://db/mail' }, 'the backup'),
      (err: unknown) =>
        err instanceof ConfigError &&
        /PostgreSQL server; the backup works on the SQLite backend only/.test(err.message),
    );
    assert.throws(() => sqlitePath({ databaseUrl: 'mysql://db/mail' }), /only SQLite and PostgreSQL/);
  });

  it('hides a password wherever the URL carries one', () => {
    assert.equal(
      redactDatabaseUrl('postgres://mail:s3cret@db:5432/mail'),
      'postgres://mail:***@db:5432/mail',
    );
    assert.equal(
      redactDatabaseUrl('postgresql://db/mail?user=mail&password=s3cret&sslmode=require'),
      'postgresql://db/mail?user=mail&password=***&sslmode=require',
    );
    assert.equal(redactDatabaseUrl('postgres://db/mail'), 'postgres://db/mail');
    assert.equal(redactDatabaseUrl('sqlite:/data/mail.db'), 'sqlite:/data/mail.db');
  });
});
