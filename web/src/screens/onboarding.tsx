// The overview's getting-started checklist (issue 29 item 14): the steps from a new account to
// mail that is sent and reported, each ticked from the account's real state (its domains, keys,
// emails and webhooks), shown until every step is done.
import { Link } from 'wouter-preact';
import type { ApiKeyList, DomainList, EmailPage, WebhookList } from '../api';
import { get } from '../api';
import { useLoad } from '../ui';

interface Step {
  readonly label: string;
  readonly href: string;
  readonly done: boolean;
}

/** The steps in order, from what the API says of the account. */
export function onboardingSteps(state: {
  domains: DomainList;
  keys: ApiKeyList;
  emails: EmailPage;
  webhooks: WebhookList;
}): Step[] {
  const firstDomain = state.domains.data[0];
  const verified = state.domains.data.find((d) => d.status === 'VERIFIED');
  const shown = verified ?? firstDomain;
  const domainPage = shown ? `/domains/${shown.id}` : '/domains';
  return [
    { label: 'Add your sending domain', href: '/domains', done: firstDomain !== undefined },
    {
      // The appliance sees published records only by checking them: publishing and verifying are
      // one step, ticked when a domain is verified.
      label: 'Publish its DNS records and verify them',
      href: domainPage,
      done: verified !== undefined,
    },
    {
      label: 'Create an API key',
      href: '/api-keys',
      done: state.keys.data.some((k) => k.revokedAt === null),
    },
    { label: 'Send your first email', href: '/emails', done: state.emails.data.length > 0 },
    { label: 'Add a webhook for delivery events', href: '/webhooks', done: state.webhooks.data.length > 0 },
  ];
}

export function Onboarding() {
  const [load] = useLoad(async () => {
    const [domains, keys, emails, webhooks] = await Promise.all([
      get<DomainList>('/v1/domains'),
      get<ApiKeyList>('/v1/api-keys'),
      get<EmailPage>('/v1/emails?limit=1'),
      get<WebhookList>('/v1/webhooks'),
    ]);
    return onboardingSteps({ domains, keys, emails, webhooks });
  }, 'onboarding');
  // Loading or failed: the checklist is a help, the overview does not wait for it or show its error.
  if (load.state !== 'ok') return null;
  const steps = load.data;
  const left = steps.filter((s) => !s.done).length;
  if (left === 0) return null;
  return (
    <div class="card wide onboarding" data-ready="onboarding">
      <h2>Getting started</h2>
      <p class="muted">
        {steps.length - left} of {steps.length} done. Each step ticks itself once the account has it.
      </p>
      <ol class="checklist">
        {steps.map((s) => (
          <li key={s.label} class={s.done ? 'done' : undefined}>
            <span class="tick" aria-hidden="true">
              {s.done ? '✓' : '○'}
            </span>{' '}
            <Link href={s.href}>{s.label}</Link>
            <span class="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
