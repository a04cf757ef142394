// A domain's receiving (issue 29 item 7): switch it on and off, its receiving host label, the
// addresses it accepts and whether only they may send, all through PATCH /v1/domains/{id} with
// the API's field errors shown under their fields; the MX record to publish (what `@` means and
// what it replaces, spec rule 7) and its check; and a line that sends a message straight to this
// server's MX, the one docs/getting-started.md prints.
import { useState } from 'preact/hooks';
import type { CheckResult, Domain, Settings, Verification } from '../api';
import { ApiError, get, patch, post } from '../api';
import { Badge, CopyButton, ErrorBox, useAction, useLoad } from '../ui';

/** `<inboundLabel>.<domain>`, or the domain itself for `@` (spec: Domains rules 2 and 7). */
export function receivingHost(domain: string, inboundLabel: string): string {
  return inboundLabel === '@' ? domain : `${inboundLabel}.${domain}`;
}

/**
 * A message sent straight to this server's MX from its own host, no MX record needed: the line
 * docs/getting-started.md ("Receive a first message") prints for example.com and port 2525
 * (test/browser/dashboard-receiving.test.ts runs it and compares the two).
 */
export function inboundTryLine(to: string, port: number): string {
  const message = `From: you@example.org\\r\\nTo: ${to}\\r\\nSubject: Hello inbound\\r\\n\\r\\nIt arrives.\\r\\n`;
  return (
    `printf '${message}' | curl -sS smtp://127.0.0.1:${port} ` +
    `--mail-from you@example.org --mail-rcpt ${to} -T - && echo accepted`
  );
}

/** The local parts typed into the addresses field: one per line or separated by commas. */
export function addressList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

type FieldErrors = Partial<
  Record<'receiveEnabled' | 'inboundLabel' | 'addresses' | 'restrictSenders', string>
>;

/**
 * The API's VALIDATION_ERROR as words under each field: `details.fields` names `inboundLabel`,
 * `addresses.<n>` (the n-th address given), …; `addresses` is the list as typed, to name the one.
 */
export function fieldErrors(err: unknown, addresses: readonly string[]): FieldErrors {
  if (!(err instanceof ApiError) || err.body.code !== 'VALIDATION_ERROR') return {};
  const fields = (err.body.details?.fields as { field: string; message: string }[] | undefined) ?? [];
  const out: FieldErrors = {};
  for (const f of fields) {
    const [name, index] = f.field.split('.');
    if (name === 'addresses' && index !== undefined) {
      const given = addresses[Number(index)] ?? '';
      const line = `“${given}”: ${f.message}`;
      out.addresses = out.addresses ? `${out.addresses}; ${line}` : line;
    } else if (
      name === 'receiveEnabled' ||
      name === 'inboundLabel' ||
      name === 'addresses' ||
      name === 'restrictSenders'
    ) {
      out[name] = f.message;
    }
  }
  return out;
}

function FieldError(props: { id: string; message: string | undefined }) {
  return props.message ? (
    <span class="field-error" id={props.id}>
      {props.message}
    </span>
  ) : null;
}

export function Receiving(props: { d: Domain; path: string; reload: () => Promise<void> }) {
  const { d, path } = props;
  const [settings] = useLoad(() => get<Settings>('/v1/settings'), 'settings:mx');
  const save = useAction();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState<string | null>(null);
  const [label, setLabel] = useState(d.inboundLabel);
  const host = receivingHost(d.domain, d.inboundLabel);
  const mx = d.records.find((r) => r.purpose === 'mx');
  return (
    <section aria-labelledby="receiving-title" data-section="receiving">
      <h2 id="receiving-title">Receiving mail</h2>
      <p data-receiving-state={d.receiveEnabled ? 'on' : 'off'}>
        <Badge
          value={d.receiveEnabled ? 'receiving on' : 'receiving off'}
          tone={d.receiveEnabled ? 'good' : 'neutral'}
        />{' '}
        {d.receiveEnabled
          ? d.addresses.length === 0
            ? `Mail to any address @${host} is accepted and shows under Inbound.`
            : `Mail to ${d.addresses.map((a) => `${a}@${host}`).join(', ')} is accepted and shows under Inbound; other addresses are refused.`
          : `This server refuses mail for ${d.domain}. Turn receiving on and the MX record to publish appears here.`}
      </p>
      <form
        class="card"
        noValidate
        aria-labelledby="receiving-form-title"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const on = (form.elements.namedItem('receiveEnabled') as HTMLInputElement).checked;
          const inboundLabel = (form.elements.namedItem('inboundLabel') as HTMLInputElement).value.trim();
          const addresses = addressList((form.elements.namedItem('addresses') as HTMLTextAreaElement).value);
          const restrict = (form.elements.namedItem('restrictSenders') as HTMLInputElement).checked;
          setErrors({});
          setSaved(null);
          void save.run(async () => {
            try {
              await patch(path, { receiveEnabled: on, inboundLabel, addresses, restrictSenders: restrict });
            } catch (err) {
              setErrors(fieldErrors(err, addresses));
              throw err;
            }
            await props.reload();
            setSaved(on ? 'Saved. Receiving is on.' : 'Saved. Receiving is off.');
          });
        }}
      >
        <h3 id="receiving-form-title">Receiving settings</h3>
        <label class="inline">
          <input type="checkbox" name="receiveEnabled" defaultChecked={d.receiveEnabled} /> Receive mail for{' '}
          {d.domain}
        </label>
        <label>
          Receiving host label
          <span class="muted small-text" id="label-hint">
            Mail is received at &lt;label&gt;.{d.domain} (default <code>inbox</code>). <code>@</code> means{' '}
            {d.domain} itself, the apex.
          </span>
          <input
            name="inboundLabel"
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
            autoComplete="off"
            spellcheck={false}
            aria-invalid={errors.inboundLabel ? true : undefined}
            aria-describedby={`label-hint${errors.inboundLabel ? ' label-error' : ''}`}
          />
          <FieldError id="label-error" message={errors.inboundLabel} />
        </label>
        {label.trim() === '@' ? (
          <p class="banner warn" data-warning="apex">
            At the apex, the MX record for {d.domain} replaces wherever {d.domain} receives mail now (a
            mailbox provider, your own server): all of its mail then comes here instead.
          </p>
        ) : null}
        <label>
          Addresses accepted
          <span class="muted small-text" id="addresses-hint">
            Local parts only (the part before @), one per line or separated by commas. Empty: every address.
          </span>
          <textarea
            name="addresses"
            rows={3}
            defaultValue={d.addresses.join('\n')}
            spellcheck={false}
            aria-invalid={errors.addresses ? true : undefined}
            aria-describedby={`addresses-hint${errors.addresses ? ' addresses-error' : ''}`}
          />
          <FieldError id="addresses-error" message={errors.addresses} />
        </label>
        <label class="inline">
          <input type="checkbox" name="restrictSenders" defaultChecked={d.restrictSenders} /> Only these
          addresses may send from {d.domain} (with none listed, any may)
        </label>
        <div class="actions">
          <button type="submit" disabled={save.busy}>
            {save.busy ? 'Saving…' : 'Save receiving settings'}
          </button>
        </div>
        {save.error ? <ErrorBox message={save.error} /> : null}
        {saved ? (
          <p class="ok" role="status">
            {saved}
          </p>
        ) : null}
      </form>
      {d.receiveEnabled && mx ? (
        <>
          <MxRecord d={d} host={host} path={path} />
          {settings.state === 'ok' ? <TryIt d={d} host={host} port={settings.data.mx.port} /> : null}
        </>
      ) : null}
    </section>
  );
}

function MxRecord(props: { d: Domain; host: string; path: string }) {
  const { d, host } = props;
  const mx = d.records.find((r) => r.purpose === 'mx');
  const check = useAction();
  const [result, setResult] = useState<CheckResult | null>(null);
  if (!mx) return null;
  const apex = d.inboundLabel === '@';
  return (
    <div class="card" data-card="mx">
      <h3>The MX record to publish</h3>
      <dl class="facts">
        <dt>Type</dt>
        <dd>MX</dd>
        <dt>Name</dt>
        <dd>
          <span class="mono">{mx.name}</span> (host <span class="mono">{mx.host}</span>
          {apex ? ', the apex' : ''}) {mx.usable ? <CopyButton value={mx.name} label="MX name" /> : null}
        </dd>
        <dt>Priority</dt>
        <dd>{mx.priority}</dd>
        <dt>Points to</dt>
        <dd>
          <span class="mono">{mx.value}</span>{' '}
          {mx.usable ? <CopyButton value={mx.value} label="MX value" /> : null}
        </dd>
        <dt>TTL</dt>
        <dd>{mx.ttl}</dd>
      </dl>
      {mx.usable ? null : (
        <p class="unusable">
          <Badge value="unusable" tone="bad" /> Do not publish. {mx.unusableReason}
        </p>
      )}
      <p class="muted">
        {apex
          ? `At the apex this replaces wherever ${d.domain} receives mail now: publish it only if this server is to take all of ${d.domain}'s mail.`
          : `Only mail to @${host} comes here; mail to @${d.domain} keeps going where it goes now.`}
      </p>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={check.busy}
          onClick={() =>
            void check.run(async () => {
              let v: Verification | undefined;
              try {
                v = await post<Verification>(`${props.path}/verify`);
              } catch (err) {
                const held = err instanceof ApiError ? err.body.details?.verification : undefined;
                if (!held) throw err;
                v = held as Verification;
              }
              if (!v.mx)
                throw new Error('The check did not include the MX: is receiving still on? Reload the page.');
              setResult(v.mx);
            })
          }
        >
          {check.busy ? 'Checking DNS…' : 'Check the MX record'}
        </button>
      </div>
      {check.error ? <ErrorBox message={check.error} /> : null}
      {result ? (
        <p aria-live="polite" data-check="mx">
          <strong>MX check:</strong> <Badge value={result.verified ? 'pass' : 'fail'} />{' '}
          {result.verified
            ? `${host} points to ${mx.value}: mail sent to it reaches this server.`
            : `${result.code ?? ''} ${result.message ?? ''}`}
          {!result.verified && result.found && result.found.length > 0 ? (
            <span class="muted"> Found: {result.found.join(', ')}.</span>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

function TryIt(props: { d: Domain; host: string; port: number }) {
  const { d } = props;
  const to = `${d.addresses[0] ?? 'hello'}@${props.host}`;
  const line = inboundTryLine(to, props.port);
  return (
    <div class="card" data-card="try-inbound">
      <h3>Try it before publishing the MX</h3>
      <p>
        On this server's host, this sends a message to {to} straight to its MX (port {props.port}); it then
        shows under Inbound. <CopyButton value={line} label="inbound test command" />
      </p>
      <pre class="mono snippet" data-snippet="inbound-curl">
        {line}
      </pre>
      {d.status === 'VERIFIED' ? null : (
        <p class="banner warn" data-warning="unverified">
          The MX takes mail only for verified domains: until {d.domain}'s SPF and DKIM records verify, this
          answers 550 (no such recipient).
        </p>
      )}
    </div>
  );
}
