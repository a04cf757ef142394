import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { formatTable } from '../../../src/cli/table';
import { invokingUser } from '../../../src/config';

describe('ctl tables', () => {
  const columns = [
    { header: 'ID', cell: (r: { id: string; note: string | null }) => r.id },
    { header: 'NOTE', cell: (r: { id: string; note: string | null }) => r.note, max: 10 },
  ];

  it('pads columns to their widest cell, marks empty cells and cuts long ones', () => {
    const out = formatTable(
      columns,
      [
        { id: 'usr_1', note: 'short' },
        { id: 'usr_22222', note: null },
        { id: 'usr_3', note: 'a note much longer\nthan ten' },
      ],
      'none',
    );
    assert.equal(
      out,
      ['ID         NOTE', 'usr_1      short', 'usr_22222  -', 'usr_3      a note mu…', ''].join('\n'),
    );
  });

  it('says so when there are no rows', () => {
    assert.equal(formatTable(columns, [], 'no accounts'), 'no accounts\n');
  });
});

describe('the operator named in the audit log (ctl)', () => {
  it("prefers sudo's invoking user, then USER, then LOGNAME", () => {
    assert.equal(invokingUser({ SUDO_USER: 'alice', USER: 'root' }), 'alice');
    assert.equal(invokingUser({ USER: 'bob', LOGNAME: 'carol' }), 'bob');
    assert.equal(invokingUser({ LOGNAME: 'carol' }), 'carol');
  });

  it('falls back to the account of the uid when no variable names one (docker exec)', () => {
    const name = invokingUser({});
    assert.notEqual(name, 'unknown');
    assert.ok(name.length > 0);
    assert.equal(name, os.userInfo().username);
  });
});
