import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MIN_RECIPIENT_CAP,
  lineBreakVerdict,
  oversizeVerdict,
  recipientCapVerdict,
  scanFailedVerdict,
} from '../../../src/mta/guard-verdicts';
import { formatReply } from '../../../src/mta/smtp-verdict';

describe('recipientCapVerdict', () => {
  it('has no objection below the cap', () => {
    assert.equal(recipientCapVerdict(0, 100), undefined);
    assert.equal(recipientCapVerdict(99, 100), undefined);
  });

  it('defers with 452 4.5.3 once the cap is reached (RFC 5321 §4.5.3.1.10)', () => {
    for (const accepted of [100, 150]) {
      const verdict = recipientCapVerdict(accepted, 100);
      assert.equal(verdict?.kind, 'defer');
      assert.equal(formatReply(verdict), '452 4.5.3 Too many recipients (at most 100 per message)');
    }
  });

  it('knows the RFC minimum of 100', () => {
    assert.equal(MIN_RECIPIENT_CAP, 100);
  });
});

describe('oversizeVerdict', () => {
  it('rejects with 552 5.3.4, not Haraka’s 550', () => {
    const verdict = oversizeVerdict(10_485_760);
    assert.equal(verdict.kind, 'reject');
    assert.equal(
      formatReply(verdict),
      '552 5.3.4 Message size exceeds fixed maximum message size (10485760 bytes)',
    );
  });
});

describe('lineBreakVerdict', () => {
  it('has no objection without a fault', () => {
    assert.equal(lineBreakVerdict(undefined), undefined);
  });

  it('rejects a bare CR or LF with 550 5.6.0 and keeps the connection', () => {
    const cr = lineBreakVerdict({ kind: 'bare-cr', smuggling: false, offset: 3 });
    assert.deepEqual(cr, {
      kind: 'reject',
      code: 550,
      status: '5.6.0',
      text: 'Message refused: bare CR; lines must end with CRLF (RFC 5321 2.3.8)',
      disconnect: false,
    });
    assert.match(formatReply(lineBreakVerdict({ kind: 'bare-lf', smuggling: false, offset: 0 })!), /bare LF/);
  });

  it('rejects a smuggling sequence and hangs up', () => {
    const verdict = lineBreakVerdict({ kind: 'bare-cr', smuggling: true, offset: 3 });
    assert.equal(verdict?.kind, 'reject');
    assert.equal(verdict?.code, 550);
    assert.equal(verdict?.kind === 'reject' && verdict.disconnect, true);
  });
});

describe('scanFailedVerdict', () => {
  it('defers (451 4.3.0) rather than queue an unchecked message', () => {
    assert.equal(
      formatReply(scanFailedVerdict()),
      '451 4.3.0 Temporary failure while checking the message; try again later',
    );
  });
});
