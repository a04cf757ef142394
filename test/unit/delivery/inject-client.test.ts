import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyHandOffError } from '../../../src/modules/delivery/inject-client';

function smtpError(code: string, responseCode?: number, response?: string): Error {
  return Object.assign(new Error(response ? `failed: ${response}` : 'failed'), {
    code,
    responseCode,
    response,
  });
}

describe('classifying a failed hand-off to the MTA', () => {
  const cases: readonly [
    string,
    unknown,
    { transient: boolean; aborted?: boolean; statusCode: number | null },
  ][] = [
    [
      'connection refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2526'), { code: 'ESOCKET' }),
      { transient: true, statusCode: null },
    ],
    ['greeting timeout', smtpError('ETIMEDOUT'), { transient: true, statusCode: null }],
    [
      '421 shutting down',
      smtpError('EPROTOCOL', 421, '421 Server shutting down'),
      { transient: true, statusCode: 421 },
    ],
    ['451 at DATA', smtpError('EMESSAGE', 451, '451 Try again'), { transient: true, statusCode: 451 }],
    ['554 at DATA', smtpError('EMESSAGE', 554, '554 Refused'), { transient: false, statusCode: 554 }],
    [
      '550 at MAIL FROM',
      smtpError('EENVELOPE', 550, '550 not a VERP sender'),
      { transient: false, statusCode: 550 },
    ],
    [
      '503 bad sequence',
      smtpError('EPROTOCOL', 503, '503 Bad sequence'),
      { transient: true, statusCode: 503 },
    ],
    [
      '535 credential refused',
      smtpError('EAUTH', 535, '535 Authentication failed'),
      { transient: true, statusCode: 535 },
    ],
    [
      'aborted (lease lost)',
      Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'EABORT' }),
      { transient: true, aborted: true, statusCode: null },
    ],
    ['a thrown string', 'boom', { transient: true, statusCode: null }],
  ];
  for (const [name, error, expected] of cases) {
    it(name, () => {
      const f = classifyHandOffError(error);
      assert.equal(f.transient, expected.transient);
      assert.equal(f.aborted, expected.aborted ?? false);
      assert.equal(f.statusCode, expected.statusCode);
      assert.ok(f.reason.length > 0);
      assert.ok(!/[\r\n]/.test(f.reason));
    });
  }

  it('keeps per-recipient refusals when every recipient was refused', () => {
    const err = Object.assign(smtpError('EENVELOPE', 550, '550 no'), {
      rejectedErrors: [
        { recipient: 'A@example.org', response: '550 5.1.1 no such user', responseCode: 550 },
        { recipient: 'b@example.org', response: '553 bad mailbox', responseCode: 553 },
      ],
    });
    assert.deepEqual(classifyHandOffError(err).rejected, [
      { address: 'a@example.org', response: '550 5.1.1 no such user', statusCode: 550 },
      { address: 'b@example.org', response: '553 bad mailbox', statusCode: 553 },
    ]);
  });
});
