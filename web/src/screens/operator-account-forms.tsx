// The operator's account actions as forms (issue 29 item 12; they were window.prompt calls):
// the sending limits (empty: the platform default) and suspend or reinstate with a reason.
// Each checks what it can before asking and shows the API's answer in words inside the form.
import { useEffect, useRef, useState } from 'preact/hooks';
import { post, put } from '../api';
import { ErrorBox, field, useAction } from '../ui';

/** The fields of an operator account summary the forms read. */
export interface FormAccount {
  readonly id: string;
  readonly email: string;
  readonly status: 'ACTIVE' | 'SUSPENDED';
  readonly suspensionReason: string | null;
  readonly emailsPerHour: number | null;
  readonly emailsPerDay: number | null;
  readonly limits: { readonly emailsPerHour: number; readonly emailsPerDay: number };
}

/** PUT /v1/operator/accounts/{id}/limits takes whole numbers from 0 to this (operatorLimitsBody). */
const LIMIT_MAX = 10_000_000;
/** Suspension and reinstatement reasons are at most this long (suspendBody). */
const REASON_MAX = 500;

type Parsed =
  { readonly ok: true; readonly value: number | null } | { readonly ok: false; readonly error: string };

/** A limit field: empty is the platform default (null); otherwise a whole number the API takes. */
export function parseLimit(label: string, text: string): Parsed {
  const digits = text.replace(/[\s,_]/g, '');
  if (digits === '') return { ok: true, value: null };
  if (!/^\d+$/.test(digits))
    return { ok: false, error: `${label} must be a whole number, or empty for the platform default.` };
  const value = Number(digits);
  if (value > LIMIT_MAX)
    return { ok: false, error: `${label} can be at most ${LIMIT_MAX.toLocaleString('en')}.` };
  return { ok: true, value };
}

/** Focus the form's first field when it opens, so keyboard and screen-reader users land in it. */
function useFocusOnOpen() {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

function FieldError(props: { id: string; message: string | undefined }) {
  return props.message ? (
    <span class="field-error" id={props.id}>
      {props.message}
    </span>
  ) : null;
}

export function LimitsForm(props: {
  account: FormAccount;
  onDone: (notice: string) => Promise<void>;
  onCancel: () => void;
}) {
  const a = props.account;
  const action = useAction();
  const [errors, setErrors] = useState<{ hour?: string; day?: string }>({});
  const first = useFocusOnOpen();
  return (
    <form
      class="card"
      aria-labelledby="limits-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const hour = parseLimit('Emails per hour', field(f, 'emailsPerHour'));
        const day = parseLimit('Emails per day', field(f, 'emailsPerDay'));
        setErrors({ hour: hour.ok ? undefined : hour.error, day: day.ok ? undefined : day.error });
        if (!hour.ok || !day.ok) return;
        void action.run(async () => {
          await put(`/v1/operator/accounts/${a.id}/limits`, {
            emailsPerHour: hour.value,
            emailsPerDay: day.value,
          });
          await props.onDone(`The limits of ${a.email} are saved.`);
        });
      }}
    >
      <h3 id="limits-title">Sending limits of {a.email}</h3>
      <p class="muted">
        In force now: {a.limits.emailsPerHour} an hour, {a.limits.emailsPerDay} a day. Leave a field empty for
        the platform default; a higher number raises the account above it, and the account's own lower limits
        still apply.
      </p>
      <div class="filters">
        <label>
          Emails per hour
          <input
            ref={first}
            name="emailsPerHour"
            inputMode="numeric"
            autoComplete="off"
            placeholder="platform default"
            defaultValue={a.emailsPerHour === null ? '' : String(a.emailsPerHour)}
            aria-invalid={errors.hour ? true : undefined}
            aria-describedby={errors.hour ? 'limit-hour-error' : undefined}
          />
          <FieldError id="limit-hour-error" message={errors.hour} />
        </label>
        <label>
          Emails per day
          <input
            name="emailsPerDay"
            inputMode="numeric"
            autoComplete="off"
            placeholder="platform default"
            defaultValue={a.emailsPerDay === null ? '' : String(a.emailsPerDay)}
            aria-invalid={errors.day ? true : undefined}
            aria-describedby={errors.day ? 'limit-day-error' : undefined}
          />
          <FieldError id="limit-day-error" message={errors.day} />
        </label>
      </div>
      {action.error ? <ErrorBox message={action.error} /> : null}
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          Save limits
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Suspend an active account or reinstate a suspended one; both need a reason for the audit log. */
export function StatusForm(props: {
  account: FormAccount;
  onDone: (notice: string) => Promise<void>;
  onCancel: () => void;
}) {
  const a = props.account;
  const suspending = a.status === 'ACTIVE';
  const verb = suspending ? 'Suspend' : 'Reinstate';
  const action = useAction();
  const [error, setError] = useState<string | undefined>();
  const first = useFocusOnOpen();
  return (
    <form
      class="card"
      aria-labelledby="status-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const reason = field(new FormData(e.currentTarget), 'reason');
        const problem =
          reason === ''
            ? `Give a reason to ${verb.toLowerCase()} ${a.email}: it is kept in the audit log.`
            : reason.length > REASON_MAX
              ? `The reason can be at most ${REASON_MAX} characters (it has ${reason.length}).`
              : undefined;
        setError(problem);
        if (problem) return;
        void action.run(async () => {
          await post(`/v1/operator/accounts/${a.id}/${suspending ? 'suspend' : 'reinstate'}`, { reason });
          await props.onDone(`${a.email} is ${suspending ? 'suspended' : 'reinstated'}.`);
        });
      }}
    >
      <h3 id="status-title">
        {verb} {a.email}
      </h3>
      {suspending ? (
        <p class="muted">
          Every API key and session of the account answers ACCOUNT_SUSPENDED at once and its queued mail is
          stopped. The account sees the reason.
        </p>
      ) : (
        <p class="muted">
          Suspended{a.suspensionReason ? `: ${a.suspensionReason}` : ''}. Reinstated, the account can send
          again; its sessions from before stay ended.
        </p>
      )}
      <label>
        Reason
        <textarea
          ref={first}
          name="reason"
          rows={2}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'reason-error' : undefined}
        />
        <FieldError id="reason-error" message={error} />
      </label>
      {action.error ? <ErrorBox message={action.error} /> : null}
      <div class="actions">
        <button type="submit" class={suspending ? 'danger' : undefined} disabled={action.busy}>
          {verb} account
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
