import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DomainState } from '../../../src/modules/domains/domain-status';
import {
  lookupRetryMs,
  MAX_RECHECK_LOOKUP_FAILURES,
  nextDomainState,
} from '../../../src/modules/domains/domain-status';

const now = new Date('2025-07-01T12:00:00.000Z');
const intervalS = 3600;
const pending: DomainState = { status: 'PENDING', verifiedAt: null, nextCheckAt: null, lookupFailures: 0 };
const verified: DomainState = {
  status: 'VERIFIED',
  verifiedAt: '2025-06-01T00:00:00.000Z',
  nextCheckAt: now.toISOString(),
  lookupFailures: 0,
};

describe('domain status transitions', () => {
  it('pass verifies and schedules the re-check one interval out', () => {
    const t = nextDomainState(pending, 'pass', { trigger: 'api', now, intervalS });
    assert.equal(t.status, 'VERIFIED');
    assert.equal(t.verifiedAt, now.toISOString());
    assert.equal(t.nextCheckAt, '2025-07-01T13:00:00.000Z');
    assert.equal(t.regressed, false);
    const again = nextDomainState(verified, 'pass', { trigger: 'recheck', now, intervalS });
    assert.equal(again.verifiedAt, verified.verifiedAt, 'verified since the first success');
  });

  it('a definite failure regresses a verified domain and leaves others as they are', () => {
    const t = nextDomainState(verified, 'fail', { trigger: 'recheck', now, intervalS });
    assert.deepEqual(t, {
      status: 'FAILED',
      verifiedAt: null,
      nextCheckAt: null,
      lookupFailures: 0,
      regressed: true,
    });
    assert.deepEqual(nextDomainState(pending, 'fail', { trigger: 'api', now, intervalS }), {
      ...pending,
      regressed: false,
    });
    assert.equal(nextDomainState(verified, 'fail', { trigger: 'api', now, intervalS }).status, 'FAILED');
  });

  it('DNS that does not answer keeps a verified domain until it has failed for about an interval', () => {
    let state: DomainState = verified;
    for (let i = 1; i < MAX_RECHECK_LOOKUP_FAILURES; i++) {
      const t = nextDomainState(state, 'unknown', { trigger: 'recheck', now, intervalS });
      assert.equal(t.status, 'VERIFIED');
      assert.equal(t.lookupFailures, i);
      assert.equal(t.nextCheckAt, new Date(now.getTime() + lookupRetryMs(intervalS)).toISOString());
      state = t;
    }
    const last = nextDomainState(state, 'unknown', { trigger: 'recheck', now, intervalS });
    assert.equal(last.status, 'FAILED');
    assert.equal(last.regressed, true);
    assert.deepEqual(nextDomainState(verified, 'unknown', { trigger: 'api', now, intervalS }), {
      ...verified,
      regressed: false,
    });
    assert.equal(lookupRetryMs(21_600), 5_400_000);
    assert.equal(lookupRetryMs(10), 10_000);
  });
});
