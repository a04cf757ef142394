// An unknown dashboard URL (issue 29 item 9): said in the app's own layout, with the way back,
// instead of a silent redirect. The server answers such a path with this app and status 404.
import { Link, useLocation } from 'wouter-preact';
import { PageTitle } from '../ui';

export function NotFound() {
  // Subscribed to the router so the path shown follows a navigation; shown whole, with its prefix.
  useLocation();
  return (
    <section>
      <PageTitle>Page not found</PageTitle>
      <p>
        There is no dashboard page at <code class="token">{window.location.pathname}</code>. The link may be
        mistyped, or the page may have moved.
      </p>
      <p>
        <Link href="/overview">Back to the overview</Link>
      </p>
    </section>
  );
}
