import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryEvent, RecipientReport } from '../../../src/mta/delivery-outcome';
import { deliveryOutcomes, replyCode } from '../../../src/mta/delivery-outcome';

const AT = '2025-01-01T00:00:00.000Z';
const EMAIL = 'email_0000000000000000000000000a';

function one(event: DeliveryEvent): ReturnType<typeof deliveryOutcomes>[number] {
  const [outcome, ...rest] = deliveryOutcomes(event);
  assert.equal(rest.length, 0);
  assert.ok(outcome);
  return outcome;
}

/** What Haraka's hmail.js leaves on a recipient the remote answered with `code extc text`. */
function remote(
  code: string,
  extc: string | undefined,
  text: string,
  address = 'Rcpt@Dest.Test',
): RecipientReport {
  return {
    address,
    smtpCode: code,
    smtpExtc: extc,
    smtpResponse: text,
    dsnStatus: extc,
    remoteMta: '192.0.2.25',
  };
}

function bounce(r: RecipientReport, numFailures: number, error = 'bounced'): DeliveryEvent {
  return { hook: 'bounce', emailId: EMAIL, recipients: [r], error, numFailures, retryBudget: 2, at: AT };
}

function deferred(r: RecipientReport, numFailures: number, error = 'Upstream error'): DeliveryEvent {
  return { hook: 'deferred', emailId: EMAIL, recipients: [r], error, numFailures, at: AT };
}

describe('deliveryOutcomes: delivered', () => {
  it('is `delivered` with 250, the remote text and the attempt after earlier failures', () => {
    const outcomes = deliveryOutcomes({
      hook: 'delivered',
      emailId: EMAIL,
      recipients: ['A@Dest.Test', 'b@dest.test'],
      response: ' OK: queued as 12345 ',
      host: 'mx.dest.test',
      numFailures: 1,
      at: AT,
    });
    assert.deepEqual(outcomes, [
      {
        emailId: EMAIL,
        at: AT,
        recipient: 'a@dest.test',
        outcome: 'delivered',
        smtpCode: 250,
        enhancedStatus: null,
        response: 'OK: queued as 12345',
        attempt: 2,
        host: 'mx.dest.test',
        tls: null,
      },
      { ...outcomes[0], recipient: 'b@dest.test' },
    ]);
  });
});

describe('deliveryOutcomes: deferred', () => {
  it('a remote 4xx: `deferred` with its code, status and text; temp_fail already counted the attempt', () => {
    const o = one(deferred(remote('451', '4.7.1', 'Greylisted'), 1));
    assert.deepEqual(
      [o.recipient, o.outcome, o.smtpCode, o.enhancedStatus, o.response, o.attempt, o.host],
      ['rcpt@dest.test', 'deferred', 451, '4.7.1', 'Greylisted', 1, '192.0.2.25'],
    );
  });

  it('a remote 4xx without an enhanced status', () => {
    const o = one(deferred(remote('421', undefined, 'Too busy'), 2));
    assert.deepEqual([o.smtpCode, o.enhancedStatus, o.response, o.attempt], [421, null, 'Too busy', 2]);
  });

  it('no MX reachable: no SMTP code, Haraka’s reason, and not its misleading 5.x status', () => {
    const o = one(
      deferred(
        { address: 'r@dest.test', dsnStatus: '5.1.2', dsnMsg: 'Tried all MXs dest.test' },
        1,
        'Tried all MXs',
      ),
    );
    assert.deepEqual(
      [o.outcome, o.smtpCode, o.enhancedStatus, o.response],
      ['deferred', null, null, 'Tried all MXs'],
    );
  });

  it('a transient DNS error keeps Haraka’s own 4.x status', () => {
    const o = one(
      deferred({ address: 'r@dest.test', dsnStatus: '4.1.0' }, 1, 'DNS lookup failure: ESERVFAIL'),
    );
    assert.deepEqual([o.enhancedStatus, o.response], ['4.1.0', 'DNS lookup failure: ESERVFAIL']);
  });

  it('never reports attempt 0', () => {
    assert.equal(one(deferred(remote('450', undefined, 'later'), 0)).attempt, 1);
  });
});

describe('deliveryOutcomes: bounce', () => {
  it('a remote 5xx on the first attempt: `bounced`, attempt 1', () => {
    const o = one(bounce(remote('550', '5.1.1', 'No such user'), 0));
    assert.deepEqual(
      [o.outcome, o.smtpCode, o.enhancedStatus, o.response, o.attempt, o.host],
      ['bounced', 550, '5.1.1', 'No such user', 1, '192.0.2.25'],
    );
  });

  it('a remote 5xx after a deferral: `bounced`, attempt 2', () => {
    const o = one(bounce(remote('554', '5.7.1', 'Spam'), 1));
    assert.deepEqual([o.outcome, o.attempt], ['bounced', 2]);
  });

  it('retries spent after remote 4xx: `failed` with the last reply, attempt = num_failures', () => {
    // temp_fail() incremented num_failures to 3 > 2 intervals, then converted to a bounce.
    const r = { ...remote('451', '4.3.0', 'Mailbox busy'), dsnStatus: '5.3.0' };
    const o = one(bounce(r, 3, 'Too many failures (Upstream error: 451 4.3.0 Mailbox busy)'));
    assert.deepEqual(
      [o.outcome, o.smtpCode, o.enhancedStatus, o.response, o.attempt],
      ['failed', 451, '4.3.0', 'Mailbox busy', 3],
    );
  });

  it('retries spent without any remote answer: `failed`, Haraka’s reason', () => {
    const o = one(
      bounce({ address: 'r@dest.test', dsnStatus: '5.1.2' }, 3, 'Too many failures (Tried all MXs)'),
    );
    assert.deepEqual(
      [o.outcome, o.smtpCode, o.enhancedStatus, o.response, o.attempt],
      ['failed', null, '5.1.2', 'Too many failures (Tried all MXs)', 3],
    );
  });

  it('no such domain / no address: `bounced` at once (a hard bounce), no SMTP code (Haraka’s 550 is its own)', () => {
    const o = one(
      bounce(
        {
          address: 'r@nx.test',
          dsnStatus: '5.1.2',
          dsnMsg: 'Nowhere to deliver mail to for domain: nx.test',
        },
        0,
        'Nowhere to deliver mail to for domain: nx.test',
      ),
    );
    assert.deepEqual([o.outcome, o.smtpCode, o.enhancedStatus, o.attempt], ['bounced', null, '5.1.2', 1]);
    assert.match(o.response, /nx\.test/);
  });

  it('a null MX (RFC 7505): `bounced` with 5.1.10', () => {
    const o = one(
      bounce(
        { address: 'r@null.test', dsnStatus: '5.1.10' },
        0,
        'Domain null.test sends and receives no email (NULL MX)',
      ),
    );
    assert.deepEqual([o.outcome, o.enhancedStatus], ['bounced', '5.1.10']);
  });

  it('a reply Haraka cannot parse: `failed` (it has no remote code)', () => {
    const o = one(
      bounce(
        { address: 'r@dest.test', dsnStatus: '5.5.1' },
        0,
        'Unrecognized response from upstream server: ???',
      ),
    );
    assert.deepEqual([o.outcome, o.smtpCode], ['failed', null]);
  });

  it('a message that could not be DKIM-signed: `failed`, said so', () => {
    const event = {
      ...bounce({ address: 'r@dest.test', dsnStatus: '5.1.2' }, 0, 'No MX for dest.test'),
      unsigned: true,
    };
    const o = one(event);
    assert.deepEqual([o.outcome, o.smtpCode, o.enhancedStatus], ['failed', null, '5.7.0']);
    assert.match(o.response, /DKIM/);
  });

  it('one outcome per recipient of the hook', () => {
    const event: DeliveryEvent = {
      hook: 'bounce',
      emailId: EMAIL,
      recipients: [remote('550', '5.1.1', 'unknown', 'x@d.test'), remote('552', '5.2.2', 'full', 'y@d.test')],
      error: 'Some recipients failed',
      numFailures: 0,
      retryBudget: 2,
      at: AT,
    };
    assert.deepEqual(
      deliveryOutcomes(event).map((o) => `${o.recipient} ${o.outcome} ${o.smtpCode}`),
      ['x@d.test bounced 550', 'y@d.test bounced 552'],
    );
  });
});

describe('deliveryOutcomes: TLS of the attempt (issue 22 item 3)', () => {
  const TLS = 'TLSv1.3 TLS_AES_256_GCM_SHA384';

  it('a delivery, a remote 4xx and a remote 5xx carry the session’s TLS', () => {
    const delivered: DeliveryEvent = {
      hook: 'delivered',
      emailId: EMAIL,
      recipients: ['r@dest.test'],
      response: 'OK',
      host: 'mx.dest.test',
      numFailures: 0,
      at: AT,
      tls: TLS,
    };
    assert.equal(one(delivered).tls, TLS);
    assert.equal(
      one({ ...deferred(remote('451', '4.7.1', 'Greylisted'), 1), tls: 'plaintext' }).tls,
      'plaintext',
    );
    assert.equal(one({ ...bounce(remote('550', '5.1.1', 'No such user'), 0), tls: TLS }).tls, TLS);
  });

  it('a failure no remote answered names no TLS: that session is not what failed', () => {
    const unreachable = deferred({ address: 'r@dest.test', dsnStatus: '5.1.2' }, 1, 'Tried all MXs');
    assert.equal(one({ ...unreachable, tls: 'plaintext' }).tls, null);
  });
});

describe('replyCode', () => {
  it('reads Haraka’s string codes and refuses anything that is not a reply code', () => {
    assert.equal(replyCode('550'), 550);
    assert.equal(replyCode(421), 421);
    for (const bad of [undefined, '', 'abc', '99', '600', '5.1.1'])
      assert.equal(replyCode(bad), null, String(bad));
  });
});
