import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserRow } from '../../../src/modules/accounts/accounts.repository';
import { effectiveLimits } from '../../../src/modules/quota/quota-limits';

const config = { rateLimitEmailsPerHour: 100, rateLimitEmailsPerDay: 1000, newAccountEmailsPerHour: 20 };
const now = Date.parse('2026-11-23T12:00:00Z');

function user(createdHoursAgo: number, overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: 'usr_x',
    email: 'x@example.com',
    name: 'x',
    password_hash: 'h',
    status: 'ACTIVE',
    suspended_at: null,
    suspension_reason: null,
    emails_per_hour: null,
    emails_per_day: null,
    own_emails_per_hour: null,
    own_emails_per_day: null,
    session_epoch: 0,
    role: 'user',
    created_at: new Date(now - createdHoursAgo * 3600_000).toISOString(),
    updated_at: new Date(now).toISOString(),
    ...overrides,
  };
}

describe('effectiveLimits', () => {
  it('uses the platform defaults for an established account', () => {
    assert.deepEqual(effectiveLimits(user(48), config, now), { hour: 100, day: 1000 });
  });
  it('caps the hourly allowance during the first 24 hours', () => {
    assert.deepEqual(effectiveLimits(user(23), config, now), { hour: 20, day: 1000 });
    assert.deepEqual(effectiveLimits(user(24), config, now), { hour: 100, day: 1000 });
  });
  it('prefers the account overrides, even for a new account', () => {
    assert.deepEqual(effectiveLimits(user(1, { emails_per_hour: 500, emails_per_day: 50 }), config, now), {
      hour: 500,
      day: 50,
    });
  });
  it("lowers the allowance by the account's own limits, never raises it", () => {
    const own = { own_emails_per_hour: 100, own_emails_per_day: 10 };
    assert.deepEqual(effectiveLimits(user(1, own), config, now), { hour: 20, day: 10 });
    assert.deepEqual(effectiveLimits(user(48, { ...own, emails_per_hour: 5 }), config, now), {
      hour: 5,
      day: 10,
    });
  });
});
