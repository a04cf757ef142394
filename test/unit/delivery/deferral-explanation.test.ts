import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainDeferral } from '../../../src/modules/delivery/deferral-explanation';

// One row per kind of temporary refusal a receiving server commonly gives (issue 19).
const CASES: readonly [reply: string, says: RegExp][] = [
  ['452 4.2.2 Mailbox full', /mailbox is full/],
  ['452-4.2.2 The email account that you tried to reach is over quota.', /mailbox is full/],
  ['451 4.7.1 Greylisted, please try again later', /greylisting/],
  ['450 4.2.0 <a@b.test>: Recipient address rejected: Greylisted for 300 seconds', /greylisting/],
  ['421 4.7.0 Too many messages from your IP, rate limited', /limiting how fast/],
  ['451 4.4.1 Not now', /did not answer/],
  ['Tried all MXs', /could not connect to any/],
  ['452 4.5.3 Too many recipients', /fewer recipients/],
  ['450 4.7.1 Client host rejected: cannot find your reverse hostname', /reverse DNS/],
  ['451 4.3.0 Mailbox busy', /temporary/],
];

describe('explainDeferral', () => {
  for (const [reply, says] of CASES) {
    it(reply, () => {
      assert.match(explainDeferral(reply), says);
    });
  }
  it('falls back to plain words when the reply says nothing recognisable', () => {
    assert.match(explainDeferral('451 try later'), /temporary error/);
  });
});
