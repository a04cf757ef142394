// "Send a test email" (issue 29 item 6) on a domain's screen: POST /v1/domains/{id}/test-email,
// which always sends in test mode to the simulator's delivered@ (captured, never delivered, no
// live effect), with a link to the email it made.
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Domain, TestEmailSent } from '../api';
import { post } from '../api';
import { ErrorBox, useAction } from '../ui';

export function TestEmail(props: { d: Domain; path: string }) {
  const { d } = props;
  const send = useAction();
  const [sent, setSent] = useState<TestEmailSent | null>(null);
  return (
    <section aria-labelledby="test-email-title">
      <h2 id="test-email-title">Send a test email</h2>
      <p class="muted">
        From {d.domain} to the simulator's <span class="mono">delivered@simulator.mailroom.invalid</span>, in
        test mode: it runs through signing and delivery into the capture and is never sent anywhere, counts in
        no statistics, and keeps {d.domain} deletable.
        {d.status === 'VERIFIED' ? '' : ' It works before the domain is verified, too.'}
      </p>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={send.busy}
          onClick={() =>
            void send.run(async () => {
              setSent(null);
              setSent(await post<TestEmailSent>(`${props.path}/test-email`));
            })
          }
        >
          {send.busy ? 'Sending…' : 'Send a test email'}
        </button>
      </div>
      {send.error ? <ErrorBox message={send.error} /> : null}
      {sent ? (
        <p class="ok" role="status" data-result="test-email">
          Test email queued from {sent.from} to {sent.to}.{' '}
          <Link href={`/emails/${sent.id}`}>Open the test email</Link> to follow it to delivered.
        </p>
      ) : null}
    </section>
  );
}
