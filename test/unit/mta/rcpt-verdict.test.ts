import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReceivingHost, ReceivingView } from '../../../src/mta/rcpt-verdict';
import { rcptVerdict } from '../../../src/mta/rcpt-verdict';
import { formatReply } from '../../../src/mta/smtp-verdict';

/** No receiving domain: every recipient is refused. */
const EMPTY_RECEIVING_VIEW: ReceivingView = { host: () => undefined };

function viewOf(hosts: Record<string, string[]>): ReceivingView {
  const map = new Map<string, ReceivingHost>(
    Object.entries(hosts).map(([host, locals]) => [
      host,
      { localParts: new Set(locals), route: { kind: 'return-path' } },
    ]),
  );
  return { host: (name) => map.get(name) };
}

const reply = (local: string, host: string, view: ReceivingView = EMPTY_RECEIVING_VIEW): string =>
  formatReply(rcptVerdict({ local, host }, view));

describe('rcptVerdict with no receiving domains (this issue)', () => {
  const cases: [string, string, string][] = [
    ['someone', 'example.com', '550 5.1.1 <someone@example.com>: no such recipient here'],
    ['postmaster', '', '550 5.1.1 <postmaster>: no such recipient here'],
    ['x', '[127.0.0.1]', '550 5.1.1 <x@[127.0.0.1]>: no such recipient here'],
    ['user', 'b.example', '550 5.1.1 <user@b.example>: no such recipient here'],
    ['user%other', 'host.example', '550 5.7.1 <user%other@host.example>: relay-style address refused'],
    ['host!user', 'relay.example', '550 5.7.1 <host!user@relay.example>: relay-style address refused'],
    ['"user@other"', 'host.example', '550 5.7.1 <"user@other"@host.example>: relay-style address refused'],
  ];
  for (const [local, host, expected] of cases) {
    it(`${local}@${host} → ${expected.slice(0, 9)}`, () => {
      assert.equal(reply(local, host), expected);
    });
  }

  it('never accepts, whatever the address', () => {
    for (const [local, host] of cases) {
      assert.equal(rcptVerdict({ local, host }, EMPTY_RECEIVING_VIEW).kind, 'reject');
    }
  });
});

describe('rcptVerdict over a receiving view', () => {
  const view = viewOf({ 'inbox.example.com': [], 'strict.example.com': ['sales', 'support'] });

  it('accepts any local part at a host with no address list', () => {
    assert.equal(
      reply('anything', 'inbox.example.com', view),
      '250 2.1.5 <anything@inbox.example.com>: recipient ok',
    );
  });

  it('matches hosts case-insensitively and without a trailing dot', () => {
    assert.equal(rcptVerdict({ local: 'a', host: 'INBOX.Example.com.' }, view).kind, 'accept');
  });

  it('accepts listed local parts case-insensitively, refuses the others with 5.1.1', () => {
    assert.equal(rcptVerdict({ local: 'Sales', host: 'strict.example.com' }, view).kind, 'accept');
    assert.equal(
      reply('bob', 'strict.example.com', view),
      '550 5.1.1 <bob@strict.example.com>: no such user here',
    );
  });

  it('still refuses relay syntax at a receiving host', () => {
    assert.equal(
      reply('a%b', 'inbox.example.com', view),
      '550 5.7.1 <a%b@inbox.example.com>: relay-style address refused',
    );
  });

  it('refuses hosts outside the view, including subdomains of receiving hosts', () => {
    assert.equal(rcptVerdict({ local: 'a', host: 'x.inbox.example.com' }, view).kind, 'reject');
    assert.equal(rcptVerdict({ local: 'a', host: 'example.com' }, view).kind, 'reject');
  });
});
