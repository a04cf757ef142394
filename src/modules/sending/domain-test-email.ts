import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { domainNotFound, findDomain } from '../domains';
import { SIMULATOR_DOMAIN } from '../../mail/simulator';
import type { SendDeps } from './send-email';
import { sendEmail } from './send-email';

/** The one recipient of a test email: the simulator accepts it; nothing is delivered anywhere. */
export const TEST_EMAIL_RECIPIENT = `delivered@${SIMULATOR_DOMAIN}`;

/** The sender's local part, unless `restrictSenders` holds the domain to its listed addresses. */
const TEST_EMAIL_LOCAL_PART = 'test';

export interface TestEmailSent {
  readonly id: string;
  readonly status: 'queued';
  readonly createdAt: string;
  readonly from: string;
  readonly to: string;
  readonly mode: 'test';
}

/**
 * `POST /v1/domains/{id}/test-email` (issue 29 item 6): the dashboard's "Send a test email".
 * Always test mode, always to the simulator's `delivered@`, whoever calls: the message is
 * captured and never delivered, counts against no quota and no statistics, and leaves the
 * domain deletable (only live mail is history). So the action cannot reach a live effect,
 * even from a session or a live key. A send is an ordinary `sendEmail` (the same checks and
 * commit); the audit entry follows its commit, which runs in the api's writer thread.
 */
export async function sendDomainTestEmail(
  deps: Omit<SendDeps, 'mode' | 'idempotency'> & { readonly actor: Actor; readonly domainId: string },
): Promise<TestEmailSent> {
  const userId = deps.user.id;
  const domain = await findDomain(deps.db, userId, deps.domainId);
  if (!domain) throw domainNotFound();
  const listed = JSON.parse(domain.addresses) as string[];
  const local = domain.restrict_senders === 1 && listed[0] !== undefined ? listed[0] : TEST_EMAIL_LOCAL_PART;
  const from = `${local}@${domain.domain}`;
  const result = await sendEmail({
    ...deps,
    mode: 'test',
    idempotency: undefined,
    input: {
      from: `Mailroom test <${from}>`,
      to: TEST_EMAIL_RECIPIENT,
      subject: `Test email from ${domain.domain}`,
      text: `This test email was sent from ${domain.domain} with Mailroom's "Send a test email". It was captured, not delivered.`,
      html: `<p>This test email was sent from <strong>${domain.domain}</strong> with Mailroom's “Send a test email”. It was captured, not delivered.</p>`,
      tags: { source: 'test-email' },
    },
  });
  const accepted = result.body as { id: string; createdAt: string };
  await recordAudit(deps.db, {
    actor: deps.actor,
    userId,
    action: 'email.test_sent',
    resource: 'email',
    resourceId: accepted.id,
    details: { domainId: domain.id, from, to: TEST_EMAIL_RECIPIENT, mode: 'test' },
  });
  return {
    id: accepted.id,
    status: 'queued',
    createdAt: accepted.createdAt,
    from,
    to: TEST_EMAIL_RECIPIENT,
    mode: 'test',
  };
}
