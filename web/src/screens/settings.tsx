// Screen 9: branding (logo upload with preview, footer) and the limits.
import { useState } from 'preact/hooks';
import type { Branding, LimitView, Settings as SettingsView } from '../api';
import { api, get, patch, put } from '../api';
import { ErrorBox, Loaded, PageTitle, useAction, useLoad, field } from '../ui';

export function Settings() {
  const [load, reload] = useLoad(async () => {
    const [settings, branding] = await Promise.all([
      get<SettingsView>('/v1/settings'),
      get<Branding>('/v1/branding'),
    ]);
    return { settings, branding };
  }, 'settings');
  const logo = useAction();
  const footer = useAction();
  const limits = useAction();
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <section>
      <PageTitle>Settings</PageTitle>
      <Loaded load={load}>
        {({ settings, branding }) => (
          <div class="grid">
            <form
              class="card"
              onSubmit={(e) => {
                e.preventDefault();
                const file = (e.currentTarget.elements.namedItem('logo') as HTMLInputElement).files?.[0];
                if (!file) return;
                void logo.run(async () => {
                  await api('PUT', '/v1/branding/logo', {
                    raw: { data: file, type: file.type || 'image/png' },
                  });
                  setPicked(null);
                  await reload();
                });
              }}
            >
              <h2>Logo</h2>
              {picked || branding.logo ? (
                <img class="logo" src={picked ?? branding.logo?.url ?? ''} alt="Logo preview" />
              ) : (
                <p class="muted">No logo yet.</p>
              )}
              <label>
                Image (PNG, JPEG or SVG, at most 512 KiB)
                <input
                  name="logo"
                  type="file"
                  accept="image/png,image/jpeg,image/svg+xml"
                  onChange={(e) => {
                    const f = e.currentTarget.files?.[0];
                    if (!f) return;
                    // A data: URL (img-src allows it): blob: is outside the CSP.
                    const reader = new FileReader();
                    reader.onload = () => setPicked(typeof reader.result === 'string' ? reader.result : null);
                    reader.readAsDataURL(f);
                  }}
                />
              </label>
              {logo.error ? <ErrorBox message={logo.error} /> : null}
              <button type="submit" disabled={logo.busy}>
                Upload logo
              </button>
            </form>
            <form
              class="card"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new FormData(e.currentTarget);
                void footer.run(async () => {
                  await put('/v1/branding/footer', {
                    html: field(f, 'html') || null,
                    text: field(f, 'text') || null,
                  });
                  await reload();
                });
              }}
            >
              <h2>Footer</h2>
              <label>
                HTML footer (<code>{'{{logo_url}}'}</code> allowed)
                <textarea name="html" rows={4} defaultValue={branding.footer.html ?? ''} />
              </label>
              <label>
                Text footer
                <textarea name="text" rows={3} defaultValue={branding.footer.text ?? ''} />
              </label>
              {footer.error ? <ErrorBox message={footer.error} /> : null}
              <button type="submit" disabled={footer.busy}>
                Save footer
              </button>
            </form>
            <form
              class="card"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new FormData(e.currentTarget);
                const n = (k: string) => {
                  const v = field(f, k);
                  return v === '' ? null : Number(v);
                };
                void limits.run(async () => {
                  await patch('/v1/settings/limits', { emailsPerHour: n('hour'), emailsPerDay: n('day') });
                  await reload();
                });
              }}
            >
              <h2>Sending limits</h2>
              <p>
                Per hour: <strong>{settings.limits.emailsPerHour.effective}</strong> (used{' '}
                {settings.usage.hour.used}
                ); per day: <strong>{settings.limits.emailsPerDay.effective}</strong> (used{' '}
                {settings.usage.day.used}).
              </p>
              <NewAccountNote hour={settings.limits.emailsPerHour} />
              <p class="muted">
                You may lower your own limits below the operator's; empty means no own limit.
              </p>
              <label>
                Own limit per hour (at most {ceiling(settings.limits.emailsPerHour)})
                <input
                  name="hour"
                  type="number"
                  min={0}
                  max={ceiling(settings.limits.emailsPerHour)}
                  defaultValue={settings.limits.emailsPerHour.own ?? ''}
                />
              </label>
              <label>
                Own limit per day (at most {ceiling(settings.limits.emailsPerDay)})
                <input
                  name="day"
                  type="number"
                  min={0}
                  max={ceiling(settings.limits.emailsPerDay)}
                  defaultValue={settings.limits.emailsPerDay.own ?? ''}
                />
              </label>
              {limits.error ? <ErrorBox message={limits.error} /> : null}
              <button type="submit" disabled={limits.busy}>
                Save limits
              </button>
            </form>
          </div>
        )}
      </Loaded>
    </section>
  );
}

/**
 * The highest own limit PATCH /v1/settings/limits takes: the operator's override, else the
 * platform default (issue 29 item 9: the form said nothing, and the API refused above it).
 */
function ceiling(limit: LimitView): number {
  return limit.override ?? limit.default;
}

/**
 * Why the hourly allowance in force is below that ceiling when neither the operator nor the
 * account lowered it: a new account's first 24 hours (NEW_ACCOUNT_EMAILS_PER_HOUR), which sending
 * enforces and the ceiling above does not (an own limit outlasts the first day).
 */
function NewAccountNote(props: { hour: LimitView }) {
  const { hour } = props;
  if (hour.own !== null || hour.override !== null || hour.effective >= hour.default) return null;
  return (
    <p class="muted">
      For its first 24 hours a new account may send {hour.effective} an hour; then {hour.default}.
    </p>
  );
}
