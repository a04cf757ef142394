import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verpAddress } from '../../../src/modules/emails/mta-outcome';
import { injectCredential } from '../../../src/mta/inject-credential';
import {
  authOffered,
  injectCredentialMatches,
  injectMailVerdict,
  injectRcptVerdict,
} from '../../../src/mta/inject-verdicts';
import { isLoopback, listenerOf } from '../../../src/mta/listeners';
import { formatReply } from '../../../src/mta/smtp-verdict';

const SECRET = 'inject-verdicts-test-secret-0123456789ab';

describe('listeners', () => {
  it('tells the injection listener from the MX by local port', () => {
    assert.equal(listenerOf(2526, 2526), 'inject');
    assert.equal(listenerOf(25, 2526), 'mx');
    assert.equal(listenerOf(null, 2526), 'mx');
  });

  it('knows loopback peers, IPv4-mapped included', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      assert.equal(isLoopback(ip), true, ip);
    }
    for (const ip of ['10.0.0.1', '192.0.2.1', '::2', '::ffff:10.0.0.1', 'localhost', '', null, undefined]) {
      assert.equal(isLoopback(ip), false, String(ip));
    }
  });
});

describe('AUTH on the injection listener', () => {
  it('is offered on the injection listener to loopback peers only', () => {
    assert.equal(authOffered('inject', '127.0.0.1'), true);
    assert.equal(authOffered('inject', '::1'), true);
    assert.equal(authOffered('inject', '192.0.2.7'), false);
    assert.equal(authOffered('mx', '127.0.0.1'), false, 'never on the MX, even from loopback');
  });

  it('accepts exactly the credential derived from SECRET_KEY', () => {
    const expected = injectCredential(SECRET);
    assert.equal(injectCredentialMatches(expected, expected.user, expected.pass), true);
    assert.equal(injectCredentialMatches(expected, 'someone-else', expected.pass), false);
    assert.equal(injectCredentialMatches(expected, expected.user, `${expected.pass}x`), false);
    assert.equal(injectCredentialMatches(expected, expected.user, ''), false);
    const other = injectCredential('another-secret-key-0123456789abcdefghij');
    assert.equal(injectCredentialMatches(expected, other.user, other.pass), false);
  });
});

describe('injectMailVerdict', () => {
  const verp = verpAddress('email_0000000000000000000000000a', 'shop.example.com');

  it('requires authentication first: 530 5.7.0 (RFC 4954 §6)', () => {
    const verdict = injectMailVerdict(false, verp);
    assert.equal(verdict?.kind, 'reject');
    assert.equal(formatReply(verdict), '530 5.7.0 Authentication required');
  });

  it('relays only VERP senders', () => {
    assert.equal(injectMailVerdict(true, verp), undefined);
    for (const sender of ['app@shop.example.com', '', 'bounce+nope@bounce.shop.example.com']) {
      const verdict = injectMailVerdict(true, sender);
      assert.equal(verdict?.kind, 'reject', sender);
      assert.match(formatReply(verdict), /^550 5\.7\.1 /);
    }
  });
});

describe('injectRcptVerdict', () => {
  it('accepts every recipient of an authenticated session, none otherwise', () => {
    assert.equal(injectRcptVerdict(true).kind, 'accept');
    assert.equal(formatReply(injectRcptVerdict(false)), '530 5.7.0 Authentication required');
  });
});
