import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taggedVerpAddress, verpAddress, verpKey } from '../../../src/mail/verp-address';
import { injectCredential } from '../../../src/modules/delivery/inject-credential';
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
  const key = verpKey('the-secret-key-0123456789abcdefghijkl');
  const id = 'email_0000000000000000000000000a';
  // The one message being sent: `id`, from shop.example.com.
  const asked: string[] = [];
  const checks = {
    tagKey: () => key,
    isBeingSent: (emailId: string, domain: string) => {
      asked.push(`${emailId}@${domain}`);
      return Promise.resolve(emailId === id && domain === 'shop.example.com');
    },
  };
  const verp = verpAddress(id, 'shop.example.com');

  it('requires authentication first: 530 5.7.0 (RFC 4954 §6)', async () => {
    const verdict = await injectMailVerdict(false, verp, checks);
    assert.equal(verdict?.kind, 'reject');
    assert.equal(formatReply(verdict), '530 5.7.0 Authentication required');
  });

  it('relays the untagged return path of a message being sent, and a tagged one whose tag verifies', async () => {
    assert.equal(await injectMailVerdict(true, verp, checks), undefined);
    assert.equal(
      await injectMailVerdict(true, taggedVerpAddress(id, 'shop.example.com', key), checks),
      undefined,
    );
  });

  it('refuses anything else: not VERP, a wrong tag, an id not being sent, another domain (issue 28 item 6)', async () => {
    const otherKey = verpKey('another-secret-key-0123456789abcdefghij');
    asked.length = 0;
    for (const sender of [
      'app@shop.example.com',
      '',
      'bounce+nope@bounce.shop.example.com',
      verpAddress('email_0000000000000000000000000b', 'shop.example.com'),
      verp.replace('@bounce.shop.example.com', '@bounce.other.example.com'),
      taggedVerpAddress(id, 'shop.example.com', otherKey),
    ]) {
      const verdict = await injectMailVerdict(true, sender, checks);
      assert.equal(verdict?.kind, 'reject', sender);
      assert.match(formatReply(verdict), /^550 5\.7\.1 /);
    }
    // A malformed sender or a wrong tag is refused before any lookup.
    assert.deepEqual(asked, ['email_0000000000000000000000000b@shop.example.com', `${id}@other.example.com`]);
  });
});

describe('injectRcptVerdict', () => {
  it('accepts every recipient of an authenticated session, none otherwise', () => {
    assert.equal(injectRcptVerdict(true).kind, 'accept');
    assert.equal(formatReply(injectRcptVerdict(false)), '530 5.7.0 Authentication required');
  });
});
