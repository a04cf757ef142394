// Screen 1: sign up, sign in, change password. The API's errors are shown in its own words.
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { AuthOptions, Me } from '../api';
import { get, post } from '../api';
import { ErrorBox, PageTitle, useAction } from '../ui';

function value(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement).value;
}

/**
 * The API accepts the dashboard's state changes only from BASE_URL's origin (else CSRF_FAILED):
 * a page opened at another one (127.0.0.1 for localhost, a LAN address, a proxy's name) says so
 * before anyone signs up, with the way out. Nothing shows while the answer is pending or failed.
 */
export function OriginBanner() {
  const [configured, setConfigured] = useState<string | undefined>(undefined);
  useEffect(() => {
    get<AuthOptions>('/v1/auth/options').then(
      (o) => setConfigured(o.origin),
      () => undefined,
    );
  }, []);
  const here = window.location.origin;
  if (configured === undefined) return null;
  // The marker says the check ran and found nothing to say (the browser test waits for it).
  if (configured === here) return <span hidden data-ready="origin" />;
  // The same screen there, an invitation's fragment included (a fragment never leaves the browser).
  const { pathname, search, hash } = window.location;
  const there = new URL(pathname + search + hash, configured).href;
  return (
    <div class="banner bad" role="alert" data-banner="origin">
      <p>
        <strong>
          You opened this dashboard at <code>{here}</code>, but this server is configured for{' '}
          <code>{configured}</code> (<code>BASE_URL</code>).
        </strong>
      </p>
      <p>
        Signing in here will fail: the server refuses every change from another origin (
        <code>CSRF_FAILED</code>). Open <a href={there}>{configured}</a> instead, or set{' '}
        <code>BASE_URL={here}</code> and restart.
      </p>
    </div>
  );
}

export function SignIn(props: { onDone: () => void }) {
  const action = useAction();
  return (
    <section class="card narrow">
      <PageTitle>Sign in to Mailroom</PageTitle>
      <OriginBanner />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          void action.run(async () => {
            await post('/v1/auth/login', { email: value(form, 'email'), password: value(form, 'password') });
            props.onDone();
          });
        }}
      >
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {action.error ? <ErrorBox message={action.error} /> : null}
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
      <p>
        No account yet? <Link href="/signup">Create one</Link>
      </p>
    </section>
  );
}

/** The token of an invitation link (`/signup#invite=<token>`): the fragment never reaches a server log. */
function invitationFromUrl(): string {
  const hash = window.location.hash.startsWith('#') ? window.location.hash.slice(1) : '';
  return new URLSearchParams(hash).get('invite') ?? '';
}

export function SignUp(props: { onDone: () => void }) {
  const action = useAction();
  const invited = invitationFromUrl();
  return (
    <section class="card narrow">
      <PageTitle>Create a Mailroom account</PageTitle>
      <OriginBanner />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const invitation = value(form, 'invitation').trim();
          void action.run(async () => {
            await post('/v1/auth/register', {
              name: value(form, 'name'),
              email: value(form, 'email'),
              password: value(form, 'password'),
              ...(invitation ? { invitation } : {}),
            });
            props.onDone();
          });
        }}
      >
        <label>
          Name
          <input name="name" autoComplete="name" required />
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password <span class="muted">(at least 10 characters)</span>
          <input name="password" type="password" autoComplete="new-password" required />
        </label>
        <label>
          Invitation{' '}
          <span class="muted">
            (from the operator's link; not needed for the first account of a new server)
          </span>
          <input name="invitation" autoComplete="off" defaultValue={invited} />
        </label>
        {action.error ? <ErrorBox message={action.error} /> : null}
        <button type="submit" disabled={action.busy}>
          Create account
        </button>
      </form>
      <p>
        Already registered? <Link href="/signin">Sign in</Link>
      </p>
    </section>
  );
}

export function AccountScreen(props: { me: Me; onChanged: () => void }) {
  const action = useAction();
  const [done, setDone] = useState(false);
  return (
    <section>
      <PageTitle>Account</PageTitle>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{props.me.name}</dd>
        <dt>Email</dt>
        <dd>{props.me.email}</dd>
        <dt>Role</dt>
        <dd>{props.me.role ?? 'user'}</dd>
      </dl>
      <h2>Change password</h2>
      <p class="muted">Changing the password signs out every other session of this account.</p>
      <form
        class="card narrow"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          setDone(false);
          void action.run(async () => {
            await post('/v1/auth/change-password', {
              currentPassword: value(form, 'currentPassword'),
              newPassword: value(form, 'newPassword'),
            });
            form.reset();
            setDone(true);
            props.onChanged();
          });
        }}
      >
        <label>
          Current password
          <input name="currentPassword" type="password" autoComplete="current-password" required />
        </label>
        <label>
          New password
          <input name="newPassword" type="password" autoComplete="new-password" required />
        </label>
        {action.error ? <ErrorBox message={action.error} /> : null}
        {done ? (
          <p role="status" class="ok">
            Password changed.
          </p>
        ) : null}
        <button type="submit" disabled={action.busy}>
          Change password
        </button>
      </form>
    </section>
  );
}
