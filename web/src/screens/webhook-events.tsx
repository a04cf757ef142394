// The event picker of the webhook forms (create, and edit on the detail): the API accepts a
// non-empty list, so an empty one is refused here, in words, before anything is sent (issue 29
// item 10: no event ticked is not "all").
import type { Webhook } from '../api';
import { enumValues } from '../api';

export type WebhookEvent = Webhook['events'][number];

export const EVENTS = enumValues<WebhookEvent>({
  'email.sent': true,
  'email.delivered': true,
  'email.bounced': true,
  'email.failed': true,
  'email.complained': true,
  'email.received': true,
  'email.unsubscribed': true,
});

/** What a webhook with no event would be told: it would hear nothing, so none is not allowed. */
export const NO_EVENT = 'Tick at least one event: a webhook hears only the events it subscribes to.';

/** The ticked events of a submitted form, or the refusal in words when none is. */
export function pickedEvents(data: FormData): { events: WebhookEvent[] } | { refusal: string } {
  const ticked = new Set(data.getAll('events').map(String));
  const events = EVENTS.filter((e) => ticked.has(e));
  return events.length === 0 ? { refusal: NO_EVENT } : { events };
}

export function EventPicker(props: { checked: readonly WebhookEvent[]; legend?: string }) {
  return (
    <fieldset>
      <legend>{props.legend ?? 'Events (at least one)'}</legend>
      {EVENTS.map((ev) => (
        <label key={ev} class="inline">
          <input type="checkbox" name="events" value={ev} defaultChecked={props.checked.includes(ev)} /> {ev}
        </label>
      ))}
    </fieldset>
  );
}
