import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmailStatus } from '../../../src/db/schema';
import { EMAIL_STATUSES } from '../../../src/db/schema';
import type { RecipientStep } from '../../../src/modules/delivery/delivery-status';
import {
  SEVERITY,
  aggregate,
  aggregateStatus,
  attemptStart,
  eventMessageFor,
  feedbackStep,
  formatSmtpResponse,
  isTerminal,
  logEventFor,
  recipientStep,
  webhookEventFor,
} from '../../../src/modules/delivery/delivery-status';
import type { MtaOutcomeKind } from '../../../src/modules/delivery/mta-outcome';

const ALL: readonly EmailStatus[] = EMAIL_STATUSES;
const REPORTS: readonly MtaOutcomeKind[] = ['delivered', 'deferred', 'bounced', 'failed'];

/** The documented table, row by row: from → report → step. */
const TABLE: readonly [EmailStatus, MtaOutcomeKind, RecipientStep][] = [
  ...(['queued', 'processing', 'sent'] as const).flatMap((from) =>
    REPORTS.map((r): [EmailStatus, MtaOutcomeKind, RecipientStep] => [
      from,
      r,
      { kind: 'advance', from, to: r },
    ]),
  ),
  ['deferred', 'delivered', { kind: 'advance', from: 'deferred', to: 'delivered' }],
  ['deferred', 'deferred', { kind: 'repeat', status: 'deferred' }],
  ['deferred', 'bounced', { kind: 'advance', from: 'deferred', to: 'bounced' }],
  ['deferred', 'failed', { kind: 'advance', from: 'deferred', to: 'failed' }],
  ['delivered', 'delivered', { kind: 'ignore', reason: 'duplicate' }],
  ['delivered', 'deferred', { kind: 'ignore', reason: 'late' }],
  ['delivered', 'bounced', { kind: 'ignore', reason: 'late' }],
  ['delivered', 'failed', { kind: 'ignore', reason: 'late' }],
  ['bounced', 'bounced', { kind: 'ignore', reason: 'duplicate' }],
  ['bounced', 'delivered', { kind: 'ignore', reason: 'late' }],
  ['bounced', 'deferred', { kind: 'ignore', reason: 'late' }],
  ['bounced', 'failed', { kind: 'ignore', reason: 'late' }],
  ['failed', 'failed', { kind: 'ignore', reason: 'duplicate' }],
  ['failed', 'delivered', { kind: 'ignore', reason: 'late' }],
  ['failed', 'deferred', { kind: 'ignore', reason: 'late' }],
  ['failed', 'bounced', { kind: 'ignore', reason: 'late' }],
  ...(['complained', 'cancelled'] as const).flatMap((from) =>
    REPORTS.map((r): [EmailStatus, MtaOutcomeKind, RecipientStep] => [
      from,
      r,
      { kind: 'ignore', reason: 'late' },
    ]),
  ),
];

describe('delivery status machine: per-recipient MTA reports', () => {
  it('the table covers every (status, report) pair', () => {
    assert.equal(TABLE.length, ALL.length * REPORTS.length);
  });

  for (const [from, report, step] of TABLE) {
    it(`${from} + ${report} → ${step.kind === 'advance' ? step.to : step.kind}`, () => {
      assert.deepEqual(recipientStep(from, report), step);
    });
  }

  it('terminal states never go backwards: after any terminal step, every report is ignored', () => {
    for (const from of ALL) {
      for (const report of REPORTS) {
        const step = recipientStep(from, report);
        if (step.kind !== 'advance' || !isTerminal(step.to)) continue;
        for (const later of REPORTS) assert.equal(recipientStep(step.to, later).kind, 'ignore');
      }
    }
  });

  it('applying the same report twice: the second is ignored, or a repeat for deferrals', () => {
    for (const from of ALL) {
      for (const report of REPORTS) {
        const first = recipientStep(from, report);
        const now = first.kind === 'advance' ? first.to : from;
        const second = recipientStep(now, report);
        assert.ok(second.kind !== 'advance', `${from} + ${report} twice advanced twice`);
      }
    }
  });
});

describe('delivery status machine: bounce and complaint reports (issue 5)', () => {
  const cases: readonly [EmailStatus, 'bounced' | 'complained', RecipientStep['kind'], EmailStatus?][] = [
    ['sent', 'bounced', 'advance', 'bounced'],
    ['deferred', 'bounced', 'advance', 'bounced'],
    ['delivered', 'bounced', 'advance', 'bounced'],
    ['bounced', 'bounced', 'ignore'],
    ['complained', 'bounced', 'ignore'],
    ['failed', 'bounced', 'ignore'],
    ['queued', 'bounced', 'ignore'],
    ['processing', 'bounced', 'ignore'],
    ['cancelled', 'bounced', 'ignore'],
    ['sent', 'complained', 'advance', 'complained'],
    ['delivered', 'complained', 'advance', 'complained'],
    ['deferred', 'complained', 'advance', 'complained'],
    ['bounced', 'complained', 'advance', 'complained'],
    ['complained', 'complained', 'ignore'],
    ['failed', 'complained', 'ignore'],
    ['queued', 'complained', 'ignore'],
    ['cancelled', 'complained', 'ignore'],
  ];
  for (const [from, report, kind, to] of cases) {
    it(`${from} + ${report} → ${to ?? kind}`, () => {
      const step = feedbackStep(from, report);
      assert.equal(step.kind, kind);
      if (step.kind === 'advance') assert.equal(step.to, to);
    });
  }
  it('a repeated report is a duplicate', () => {
    assert.deepEqual(feedbackStep('bounced', 'bounced'), { kind: 'ignore', reason: 'duplicate' });
    assert.deepEqual(feedbackStep('complained', 'complained'), { kind: 'ignore', reason: 'duplicate' });
  });
});

describe('aggregate status: the worst outcome across recipients', () => {
  const cases: readonly [readonly EmailStatus[], EmailStatus][] = [
    [['delivered'], 'delivered'],
    [['delivered', 'delivered', 'delivered', 'delivered'], 'delivered'],
    [['delivered', 'delivered', 'bounced', 'delivered'], 'bounced'],
    [['delivered', 'failed'], 'failed'],
    [['bounced', 'failed'], 'bounced'],
    [['complained', 'bounced', 'delivered'], 'complained'],
    // In flight beats terminal: the message does not look finished early.
    [['bounced', 'sent', 'sent'], 'sent'],
    [['bounced', 'deferred'], 'deferred'],
    [['delivered', 'sent'], 'sent'],
    [['sent', 'deferred', 'delivered'], 'deferred'],
    [['delivered', 'processing'], 'processing'],
    [['queued', 'queued'], 'queued'],
    [['failed', 'sent'], 'sent'],
    [['cancelled', 'cancelled'], 'cancelled'],
  ];
  for (const [statuses, expected] of cases) {
    it(`[${statuses.join(', ')}] → ${expected}`, () => {
      assert.equal(aggregateStatus(statuses), expected);
      assert.equal(aggregateStatus([...statuses].reverse()), expected, 'order of recipients does not matter');
    });
  }

  it('no recipients: undefined', () => {
    assert.equal(aggregateStatus([]), undefined);
  });

  it('SEVERITY lists every status once, in-flight ones first', () => {
    assert.deepEqual([...SEVERITY].sort(), [...ALL].sort());
    const firstTerminal = SEVERITY.findIndex(isTerminal);
    assert.ok(SEVERITY.slice(firstTerminal).every(isTerminal));
    assert.ok(SEVERITY.slice(0, firstTerminal).every((s) => !isTerminal(s)));
  });

  it('the message response is the latest response among recipients in the aggregate status', () => {
    const state = aggregate([
      { status: 'delivered', smtpResponse: '250 ok a', updatedAt: '2030-01-01T00:00:03.000Z' },
      { status: 'bounced', smtpResponse: '550 no b', updatedAt: '2030-01-01T00:00:01.000Z' },
      { status: 'bounced', smtpResponse: '550 no c', updatedAt: '2030-01-01T00:00:02.000Z' },
    ]);
    assert.deepEqual(state, { status: 'bounced', smtpResponse: '550 no c' });
    assert.deepEqual(aggregate([{ status: 'queued', smtpResponse: null, updatedAt: 'x' }]), {
      status: 'queued',
      smtpResponse: null,
    });
    assert.equal(aggregate([]), undefined);
  });
});

describe('send attempts, hooks, log events and texts', () => {
  it('an attempt starts from queued, resumes from processing, skips anything else', () => {
    for (const s of ALL) {
      const expected = s === 'queued' ? 'fresh' : s === 'processing' ? 'interrupted' : 'skip';
      assert.equal(attemptStart(s), expected, s);
    }
  });

  it('webhook events and log events per new recipient status', () => {
    assert.equal(webhookEventFor('sent'), 'email.sent');
    assert.equal(webhookEventFor('delivered'), 'email.delivered');
    assert.equal(webhookEventFor('bounced'), 'email.bounced');
    assert.equal(webhookEventFor('failed'), 'email.failed');
    assert.equal(webhookEventFor('complained'), 'email.complained');
    assert.equal(webhookEventFor('deferred'), undefined);
    assert.equal(logEventFor('delivered'), 'email_delivered');
    assert.equal(logEventFor('bounced'), 'email_failed_permanent');
    assert.equal(logEventFor('failed'), 'email_failed_exhausted');
  });

  it('SMTP responses read as one line starting with the code', () => {
    const f = (smtpCode: number | null, enhancedStatus: string | null, response: string) =>
      formatSmtpResponse({ smtpCode, enhancedStatus, response });
    assert.equal(f(250, '2.0.0', 'OK id=1'), '250 2.0.0 OK id=1');
    assert.equal(f(250, '2.0.0', '250 2.0.0 OK id=1'), '250 2.0.0 OK id=1');
    assert.equal(f(550, '5.1.1', '5.1.1 user unknown'), '550 5.1.1 user unknown');
    assert.equal(f(451, null, 'try later\r\nsecond line'), '451 try later second line');
    assert.equal(f(null, null, 'connect ETIMEDOUT'), 'connect ETIMEDOUT');
  });

  it('deferral events carry the MTA attempt; others the response', () => {
    assert.equal(eventMessageFor({ outcome: 'deferred', attempt: 2 }, '451 later'), 'attempt 2: 451 later');
    assert.equal(eventMessageFor({ outcome: 'delivered', attempt: 3 }, '250 ok'), '250 ok');
  });
});
