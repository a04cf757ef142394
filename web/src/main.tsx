/// <reference types="vite/client" />
import { render } from 'preact';
import { Router } from 'wouter-preact';
import { App } from './app';
import './styles.css';

// Every screen's path is under vite's `base` (`/app/`, issue 30): the router adds it to each link
// and strips it from the location, so the screens name their paths without it.
const base = import.meta.env.BASE_URL.replace(/\/$/, '');

const root = document.getElementById('app');
if (root)
  render(
    <Router base={base}>
      <App />
    </Router>,
    root,
  );
