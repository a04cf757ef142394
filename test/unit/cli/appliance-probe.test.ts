import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { greetingName } from '../../../src/cli/appliance-probe';

describe('appliance probe', () => {
  it('reads the server name from an SMTP greeting', () => {
    assert.equal(greetingName('220 MX.Example.test ESMTP Haraka ready'), 'mx.example.test');
    assert.equal(greetingName('220-mx.example.test ESMTP'), 'mx.example.test');
    assert.equal(greetingName('554 go away'), null);
  });
});
