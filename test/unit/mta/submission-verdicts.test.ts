import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  domainNotVerified,
  sendingLimitExceeded,
  suppressedRecipient,
} from '../../../src/modules/emails/emails.errors';
import { submitterSuspended } from '../../../src/modules/sending/submit-message';
import {
  apiKeyOf,
  submissionAuthOffered,
  submissionErrorVerdict,
} from '../../../src/mta/submission/submission-verdicts';

describe('submission verdicts', () => {
  it('offers AUTH only over TLS unless plaintext is allowed', () => {
    assert.equal(submissionAuthOffered(false, false), false);
    assert.equal(submissionAuthOffered(true, false), true);
    assert.equal(submissionAuthOffered(false, true), true);
  });

  it('takes an API key as the password', () => {
    assert.equal(apiKeyOf(' re_live_abc '), 're_live_abc');
    assert.equal(apiKeyOf('re_live_'), undefined);
    assert.equal(apiKeyOf('hunter2'), undefined);
  });

  it('maps the API refusals to 5xx and quota to 451 4.7.1', () => {
    const quota = submissionErrorVerdict(sendingLimitExceeded('spent'));
    assert.equal(quota.kind, 'defer');
    assert.equal(quota.code, 451);
    assert.equal(quota.status, '4.7.1');
    for (const err of [domainNotVerified('x'), suppressedRecipient('y'), submitterSuspended()]) {
      const v = submissionErrorVerdict(err);
      assert.equal(v.kind, 'reject');
      assert.equal(Math.floor(v.code / 100), 5);
    }
    assert.equal(submissionErrorVerdict(new Error('db down')).code, 451);
  });
});
