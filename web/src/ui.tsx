// Shared pieces: data loading with its three states, times, copy buttons, badges.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api';

export type Load<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly error: string }
  | { readonly state: 'ok'; readonly data: T };

/**
 * Loads `fetcher` when `key` changes; `reload` refetches without blanking the screen. The render
 * that first sees a new key already says loading: rows of the old key (the old filters) are never
 * shown under the new one, not even for the one render before the effect runs.
 */
export function useLoad<T>(fetcher: () => Promise<T>, key: string): [Load<T>, () => Promise<void>] {
  const [held, setHeld] = useState<{ key: string; load: Load<T> }>({ key, load: { state: 'loading' } });
  const current = useRef(key);
  const reload = useCallback(async () => {
    const asked = key;
    try {
      const data = await fetcher();
      if (current.current === asked) setHeld({ key: asked, load: { state: 'ok', data } });
    } catch (err) {
      if (current.current === asked)
        setHeld({ key: asked, load: { state: 'error', error: describeError(err) } });
    }
  }, [key]);
  useEffect(() => {
    current.current = key;
    void reload();
  }, [key]);
  return [held.key === key ? held.load : { state: 'loading' }, reload];
}

/** Renders the loading, error or data state of a load; the placeholders keep their space. */
export function Loaded<T>(props: {
  load: Load<T>;
  children: (data: T) => ComponentChildren;
  minHeight?: string;
}): ComponentChildren {
  const { load } = props;
  if (load.state === 'loading')
    return (
      <div class="placeholder" role="status" aria-live="polite">
        Loading…
      </div>
    );
  if (load.state === 'error') return <ErrorBox message={load.error} />;
  return props.children(load.data);
}

export function ErrorBox(props: { message: string }) {
  return (
    <div class="error" role="alert">
      {props.message}
    </div>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

// timeStyle 'long' names the viewer's zone ("14:05:00 CET"), so a time is never ambiguous.
const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' });

/** A time in the browser's zone, with the UTC value on hover (issue 19). */
export function Time(props: { iso: string | null | undefined }) {
  if (!props.iso) return <span class="muted">—</span>;
  const d = new Date(props.iso);
  return (
    <time dateTime={props.iso} title={`${d.toISOString().replace('T', ' ').slice(0, 19)} UTC`}>
      {fmt.format(d)}
    </time>
  );
}

export function CopyButton(props: { value: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="small"
      aria-label={`${done ? 'Copied' : 'Copy'} ${props.label}`}
      onClick={() => {
        void navigator.clipboard.writeText(props.value).then(
          () => setDone(true),
          () => setDone(false),
        );
        setTimeout(() => setDone(false), 1500);
      }}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

/**
 * A message's status as a person reads it: a queued message waiting for its scheduledAt is
 * `scheduled`, with the time in the viewer's zone beside it.
 */
export function StatusBadge(props: { status: string; scheduledAt?: string | null | undefined }) {
  if (props.status === 'queued' && props.scheduledAt && Date.parse(props.scheduledAt) > Date.now()) {
    return (
      <span class="status-scheduled">
        <Badge value="scheduled" tone="neutral" /> <Time iso={props.scheduledAt} />
      </span>
    );
  }
  return <Badge value={props.status} />;
}

export function Badge(props: { value: string; tone?: 'good' | 'bad' | 'warn' | 'neutral' }) {
  return <span class={`badge ${props.tone ?? toneOf(props.value)}`}>{props.value}</span>;
}

function toneOf(v: string): 'good' | 'bad' | 'warn' | 'neutral' {
  const s = v.toLowerCase();
  if (['delivered', 'verified', 'pass', 'active', 'enabled', 'ok'].includes(s)) return 'good';
  if (['bounced', 'failed', 'complained', 'fail', 'suspended', 'disabled', 'permerror'].includes(s))
    return 'bad';
  if (['deferred', 'pending', 'queued', 'processing', 'sent', 'softfail', 'temperror'].includes(s))
    return 'warn';
  return 'neutral';
}

/** A form's submit with its busy and error states. */
export function useAction(): {
  busy: boolean;
  error: string | null;
  run: (fn: () => Promise<void>) => Promise<void>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(null) };
}

/** False until the first screen has shown: the initial load keeps the browser's own focus. */
let navigated = false;

/**
 * The screen's heading, also the document title. After a client-side navigation it takes the
 * focus, so a screen-reader or keyboard user starts on the new screen, as after a page load.
 */
export function PageTitle(props: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${ref.current?.textContent ?? ''} · Mailroom`;
    if (navigated) ref.current?.focus();
    navigated = true;
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} id="page-title">
      {props.children}
    </h1>
  );
}

/** A text field of a submitted form, trimmed ('' when absent or a file). */
export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * A date input's day as the start (or, with `end`, the end: the next day's start) of that day in
 * the browser's zone, in ISO; the API's `to` bounds are exclusive.
 */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (end) d.setDate(d.getDate() + 1);
  return d.toISOString();
}
