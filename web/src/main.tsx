/// <reference types="vite/client" />
import { render } from 'preact';
import { useMemo } from 'preact/hooks';
import type { Parser } from 'wouter-preact';
import { Router, useRouter } from 'wouter-preact';
import { App } from './app';
import './styles.css';

// Every screen's path is under vite's `base` (`/app/`, issue 30): the router adds it to each link
// and strips it from the location, so the screens name their paths without it.
const base = import.meta.env.BASE_URL.replace(/\/$/, '');

/**
 * Paths match case-sensitively, as the server answers them (src/http/web-app.ts): `/app/Overview`
 * is no screen, so it is "Page not found" with the server's 404 rather than the overview with it.
 * Wouter's own parser (regexparam) matches regardless of case; this drops the `i` flag.
 */
function Routes() {
  const { parser } = useRouter();
  const strict = useMemo<Parser>(
    () => (route, loose) => {
      const parsed = parser(route, loose);
      return { ...parsed, pattern: new RegExp(parsed.pattern.source, parsed.pattern.flags.replace('i', '')) };
    },
    [parser],
  );
  return (
    <Router base={base} parser={strict}>
      <App />
    </Router>
  );
}

const root = document.getElementById('app');
if (root) render(<Routes />, root);
