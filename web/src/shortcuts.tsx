// Single-key shortcuts of a screen (the email list and detail, issue 29 item 11), and the `?`
// dialog that lists them. None fires while typing in a field, with a modifier held, or while a
// dialog is open (its own Escape closes it).
import { useEffect, useRef, useState } from 'preact/hooks';

export interface Shortcut {
  /** `KeyboardEvent.key` values: `j`, `Enter`, `Escape`, `/`. */
  readonly keys: readonly string[];
  readonly does: string;
  /** None: the browser does it already (Enter on the focused row's link); only listed. */
  readonly run?: () => void;
}

/** Whether a key pressed on this element is typing, not a command. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The screen's shortcuts, plus `?` for the list of them; renders the button and dialog that show it. */
export function Shortcuts(props: { shortcuts: readonly Shortcut[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const latest = useRef(props.shortcuts);
  latest.current = props.shortcuts;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      if (e.key === '?') {
        e.preventDefault();
        setOpen(true);
        return;
      }
      const hit = latest.current.find((s) => s.keys.includes(e.key));
      if (!hit?.run) return;
      e.preventDefault();
      hit.run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);

  return (
    <>
      <button type="button" class="small secondary shortcuts-button" onClick={() => setOpen(true)}>
        Keyboard shortcuts <kbd>?</kbd>
      </button>
      <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <dl>
          {props.shortcuts.map((s) => (
            <div key={s.does}>
              <dt>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? ' or ' : null}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{s.does}</dd>
            </div>
          ))}
          <div>
            <dt>
              <kbd>?</kbd>
            </dt>
            <dd>Show this list</dd>
          </div>
        </dl>
        <p class="muted">Not while typing in a field.</p>
        <form method="dialog">
          <button type="submit">Close</button>
        </form>
      </dialog>
    </>
  );
}
