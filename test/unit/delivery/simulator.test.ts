import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isSimulatedSuppressed,
  isSimulatorAddress,
  simulatedOutcome,
  unknownSimulatorAddress,
} from '../../../src/mail/simulator';
import { simulatedReport } from '../../../src/modules/delivery/simulator-reports';
import { readReport } from '../../../src/modules/bounces/classify-report';

describe('simulator addresses (issue 21)', () => {
  const cases: [string, string | undefined][] = [
    ['delivered@simulator.mailroom.invalid', 'delivered'],
    ['Bounced@Simulator.Mailroom.Invalid', 'bounced'],
    ['soft-bounced+run-7@simulator.mailroom.invalid', 'soft-bounced'],
    ['deferred@simulator.mailroom.invalid', 'deferred'],
    ['complained@simulator.mailroom.invalid', 'complained'],
    ['suppressed@simulator.mailroom.invalid', 'suppressed'],
    ['nobody@simulator.mailroom.invalid', undefined],
    ['delivered@simulator.mailroom.invalid.example.com', undefined],
    ['delivered@example.com', undefined],
  ];
  for (const [address, outcome] of cases) {
    it(`${address} → ${outcome ?? 'none'}`, () => {
      assert.equal(simulatedOutcome(address), outcome);
    });
  }

  it('tells an unknown local part at the simulator from an address elsewhere', () => {
    assert.equal(isSimulatorAddress('nobody@simulator.mailroom.invalid'), true);
    assert.match(unknownSimulatorAddress('nobody@simulator.mailroom.invalid') ?? '', /delivered@simulator/);
    assert.equal(unknownSimulatorAddress('delivered+x@simulator.mailroom.invalid'), undefined);
    assert.equal(unknownSimulatorAddress('nobody@example.com'), undefined);
    assert.equal(isSimulatedSuppressed('suppressed+a@simulator.mailroom.invalid'), true);
  });

  it('its reports read as a hard bounce, a soft bounce and a complaint for the recipient', () => {
    const subject = {
      emailId: 'email_06h1h6a3jr7e9mbm653b0wyw28',
      verp: 'bounce+email_06h1h6a3jr7e9mbm653b0wyw28.abcd@bounce.example.com',
      messageId: '<email_06h1h6a3jr7e9mbm653b0wyw28@example.com>',
      fromHeader: 'Shop <shop@example.com>',
      subject: 'Your order',
      at: new Date('2026-11-26T10:00:00Z'),
    };
    const read = (outcome: 'bounced' | 'soft-bounced' | 'complained', recipient: string) =>
      readReport(simulatedReport(outcome, { ...subject, recipient }));
    const hard = read('bounced', 'bounced@simulator.mailroom.invalid');
    assert.equal(hard.originalMessageId, subject.messageId);
    assert.deepEqual(
      hard.results.map((r) => [r.recipient, r.kind, r.status, r.smtpCode]),
      [['bounced@simulator.mailroom.invalid', 'hard', '5.1.1', 550]],
    );
    const soft = read('soft-bounced', 'soft-bounced@simulator.mailroom.invalid');
    assert.deepEqual(
      soft.results.map((r) => [r.kind, r.status]),
      [['soft', '5.2.2']],
    );
    const complaint = read('complained', 'complained@simulator.mailroom.invalid');
    assert.deepEqual(
      complaint.results.map((r) => [r.recipient, r.kind]),
      [['complained@simulator.mailroom.invalid', 'complaint']],
    );
  });
});
