// The shell: who is signed in, the navigation, the suspension banner, and the screens' routes.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter-preact';
import type { Me } from './api';
import { ApiError, get, post, whenSignedOut } from './api';
import { AccountScreen, SignIn, SignUp } from './screens/auth';
import { DomainDetail, Domains } from './screens/domains';
import { EmailDetail } from './screens/email-detail';
import { Emails } from './screens/emails';
import { InboundDetail, InboundList } from './screens/inbound';
import { NotFound } from './screens/not-found';
import { ApiKeys } from './screens/keys';
import { Operator } from './screens/operator';
import { Overview } from './screens/overview';
import { Settings } from './screens/settings';
import { Suppressions } from './screens/suppressions';
import { WebhookDetail } from './screens/webhook-detail';
import { Webhooks } from './screens/webhooks';

const NAV: readonly (readonly [string, string])[] = [
  ['/overview', 'Overview'],
  ['/emails', 'Emails'],
  ['/domains', 'Domains'],
  ['/api-keys', 'API keys'],
  ['/webhooks', 'Webhooks'],
  ['/suppressions', 'Suppressions'],
  ['/inbound', 'Inbound'],
  ['/settings', 'Settings'],
  ['/account', 'Account'],
];

type Session =
  | { state: 'checking' }
  | { state: 'out' }
  | { state: 'suspended'; reason: string | null }
  | { state: 'in'; me: Me };

export function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const [location, navigate] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  const refreshMe = async () => {
    try {
      setSession({ state: 'in', me: await get<Me>('/v1/auth/me') });
    } catch (err) {
      if (err instanceof ApiError && err.body.code === 'ACCOUNT_SUSPENDED')
        setSession({ state: 'suspended', reason: (err.body.details?.reason as string | null) ?? null });
      else setSession({ state: 'out' });
    }
  };

  useEffect(() => {
    whenSignedOut(
      () => setSession({ state: 'out' }),
      (reason) => setSession({ state: 'suspended', reason }),
    );
    void refreshMe();
  }, []);

  if (session.state === 'checking')
    return (
      <div class="placeholder full" role="status">
        Loading…
      </div>
    );

  if (session.state === 'out') {
    const signedIn = () => {
      void refreshMe().then(() => navigate('/overview'));
    };
    return (
      <main class="auth-page" id="main">
        <Switch>
          <Route path="/signup">
            <SignUp onDone={signedIn} />
          </Route>
          <Route path="/signin">
            <SignIn onDone={signedIn} />
          </Route>
          <Route>
            <Redirect to="/signin" replace />
          </Route>
        </Switch>
      </main>
    );
  }

  if (session.state === 'suspended')
    return (
      <main class="auth-page" id="main">
        <SuspensionBanner reason={session.reason} />
        <p>
          While the account is suspended every request answers <code>ACCOUNT_SUSPENDED</code> and queued mail
          is stopped. Contact the operator of this Mailroom to have it reinstated.
        </p>
        <button type="button" onClick={() => setSession({ state: 'out' })}>
          Sign in as someone else
        </button>
      </main>
    );

  const me = session.me;
  const signOut = async () => {
    try {
      await post('/v1/auth/logout');
    } finally {
      setSession({ state: 'out' });
      navigate('/signin');
    }
  };
  const nav = me.role === 'operator' ? [...NAV, ['/operator', 'Operator'] as const] : NAV;

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Mailroom</span>
        {/* At phone width the links fold behind this button (issue 29 item 13); wider, it is hidden. */}
        <button
          type="button"
          class="small secondary menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav aria-label="Main" id="main-nav" class={menuOpen ? 'open' : undefined}>
          <ul>
            {nav.map(([href, label]) => (
              <li key={href}>
                <Link
                  href={href}
                  aria-current={location.startsWith(href) ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="muted">{me.email}</span>
          <button type="button" class="small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <Screens me={me} onAccountChanged={() => void refreshMe()} />
      </main>
    </div>
  );
}

function SuspensionBanner(props: { reason: string | null }): ComponentChildren {
  return (
    <div class="banner bad" role="alert">
      <strong>This account is suspended: sending is stopped.</strong>
      {props.reason ? <span> Reason: {props.reason}</span> : null}
    </div>
  );
}

function Screens(props: { me: Me; onAccountChanged: () => void }) {
  return (
    <Switch>
      <Route path="/overview" component={Overview} />
      <Route path="/emails" component={Emails} />
      <Route path="/emails/:id">{(p: { id: string }) => <EmailDetail id={p.id} />}</Route>
      <Route path="/domains" component={Domains} />
      <Route path="/domains/:id">{(p: { id: string }) => <DomainDetail id={p.id} />}</Route>
      <Route path="/api-keys" component={ApiKeys} />
      <Route path="/webhooks" component={Webhooks} />
      <Route path="/webhooks/:id">{(p: { id: string }) => <WebhookDetail id={p.id} />}</Route>
      <Route path="/suppressions" component={Suppressions} />
      <Route path="/inbound" component={InboundList} />
      <Route path="/inbound/:id">{(p: { id: string }) => <InboundDetail id={p.id} />}</Route>
      <Route path="/settings" component={Settings} />
      <Route path="/account">
        <AccountScreen me={props.me} onChanged={props.onAccountChanged} />
      </Route>
      <Route path="/operator">
        {props.me.role === 'operator' ? <Operator /> : <Redirect to="/overview" />}
      </Route>
      {/* Signed in already: the sign-in and sign-up links lead to the overview. */}
      <Route path="/signin">
        <Redirect to="/overview" replace />
      </Route>
      <Route path="/signup">
        <Redirect to="/overview" replace />
      </Route>
      <Route path="/">
        <Redirect to="/overview" replace />
      </Route>
      <Route component={NotFound} />
    </Switch>
  );
}
