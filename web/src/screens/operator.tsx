// Screen 10: the operator's accounts (status, volume), suspend/reinstate with a reason,
// limits, and the audit log with filters. Session-authenticated /v1/operator endpoints.
import { useState } from 'preact/hooks';
import type { AuditPage, CreatedInvitation, InvitationList, OperatorAccountPage } from '../api';
import { del, get, post, put, qs } from '../api';
import { CursorPager, ListTable, useCursors } from '../list';
import { Badge, Empty, ErrorBox, Loaded, PageTitle, Time, dayBound, field, useAction, useLoad } from '../ui';

export function Operator() {
  const [accounts, reload] = useLoad(
    () => get<OperatorAccountPage>('/v1/operator/accounts?limit=100'),
    'op-accounts',
  );
  const action = useAction();
  return (
    <section>
      <PageTitle>Operator</PageTitle>
      <h2>Accounts</h2>
      {action.error ? <ErrorBox message={action.error} /> : null}
      <Loaded load={accounts}>
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No accounts.</Empty>
          ) : (
            <div class="table-wrap" tabIndex={0}>
              <table>
                <caption class="sr-only">Accounts</caption>
                <thead>
                  <tr>
                    <th scope="col">Account</th>
                    <th scope="col">Status</th>
                    <th scope="col">Volume</th>
                    <th scope="col">Limits (hour/day)</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((a) => (
                    <tr key={a.id} data-account={a.email}>
                      <td>
                        {a.name} <span class="muted">{a.email}</span>
                      </td>
                      <td>
                        <Badge value={a.status} />
                        {a.suspensionReason ? <div class="muted">{a.suspensionReason}</div> : null}
                      </td>
                      <td>
                        {a.volume.last24h} in 24 h, {a.volume.last30d} in 30 days
                      </td>
                      <td>
                        {a.limits.emailsPerHour} / {a.limits.emailsPerDay}
                        {a.emailsPerHour !== null || a.emailsPerDay !== null
                          ? ' (set by an operator)'
                          : ''}{' '}
                        <button
                          type="button"
                          class="small secondary"
                          aria-label={`Set limits of ${a.email}`}
                          onClick={() =>
                            void action.run(async () => {
                              const hour = window.prompt('Emails per hour (empty: platform default)', '');
                              if (hour === null) return;
                              const day = window.prompt('Emails per day (empty: platform default)', '');
                              if (day === null) return;
                              await put(`/v1/operator/accounts/${a.id}/limits`, {
                                emailsPerHour: hour.trim() === '' ? null : Number(hour),
                                emailsPerDay: day.trim() === '' ? null : Number(day),
                              });
                              await reload();
                            })
                          }
                        >
                          Limits
                        </button>
                      </td>
                      <td>
                        <button
                          type="button"
                          class={a.status === 'ACTIVE' ? 'small danger' : 'small'}
                          aria-label={`${a.status === 'ACTIVE' ? 'Suspend' : 'Reinstate'} ${a.email}`}
                          onClick={() =>
                            void action.run(async () => {
                              const verb = a.status === 'ACTIVE' ? 'suspend' : 'reinstate';
                              const reason = window.prompt(`Reason to ${verb} ${a.email}`, '');
                              if (reason === null || (verb === 'suspend' && reason.trim() === '')) return;
                              await post(
                                `/v1/operator/accounts/${a.id}/${verb}`,
                                reason.trim() === '' ? {} : { reason: reason.trim() },
                              );
                              await reload();
                            })
                          }
                        >
                          {a.status === 'ACTIVE' ? 'Suspend' : 'Reinstate'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      <Invitations />
      <AuditLog />
    </section>
  );
}

/** Invitations to register (SIGNUP_MODE=invite): create for an address, list, revoke. */
function Invitations() {
  const [load, reload] = useLoad(() => get<InvitationList>('/v1/operator/invitations'), 'op-invitations');
  const action = useAction();
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  return (
    <>
      <h2>Invitations</h2>
      <p class="muted">
        Each link lets one person register with the address it names; it works once and expires.
      </p>
      <form
        class="filters"
        aria-label="Invite someone"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const email = field(new FormData(form), 'email');
          void action.run(async () => {
            setCreated(await post<CreatedInvitation>('/v1/operator/invitations', { email }));
            form.reset();
            await reload();
          });
        }}
      >
        <label>
          Email
          <input name="email" type="email" required />
        </label>
        <div class="actions">
          <button type="submit" disabled={action.busy}>
            Invite
          </button>
        </div>
      </form>
      {action.error ? <ErrorBox message={action.error} /> : null}
      {created ? (
        <p role="status">
          Send this link to {created.email} (shown only now): <code>{created.url}</code>
        </p>
      ) : null}
      <Loaded load={load}>
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No pending invitations.</Empty>
          ) : (
            <ul>
              {list.data.map((i) => (
                <li key={i.id}>
                  {i.email}, expires <Time iso={i.expiresAt} />{' '}
                  <button
                    type="button"
                    class="secondary"
                    disabled={action.busy}
                    onClick={() =>
                      void action.run(async () => {
                        await del(`/v1/operator/invitations/${i.id}`);
                        await reload();
                      })
                    }
                  >
                    Revoke<span class="sr-only"> the invitation of {i.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

function AuditLog() {
  const [filters, setFilters] = useState({ action: '', actor: '', from: '', to: '' });
  const cursors = useCursors();
  const path = `/v1/operator/audit${qs({ ...filters, cursor: cursors.cursor })}`;
  const [load] = useLoad(() => get<AuditPage>(path), path);
  return (
    <>
      <h2>Audit log</h2>
      <form
        class="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          cursors.reset();
          setFilters({
            action: field(f, 'action'),
            actor: field(f, 'actor'),
            from: dayBound(field(f, 'from'), false) ?? '',
            to: dayBound(field(f, 'to'), true) ?? '',
          });
        }}
      >
        <label>
          Action
          <input name="action" placeholder="user.suspended" />
        </label>
        <label>
          Actor
          <input name="actor" />
        </label>
        <label>
          From day
          <input name="from" type="date" />
        </label>
        <label>
          To day
          <input name="to" type="date" />
        </label>
        <div class="actions">
          <button type="submit">Filter</button>
        </div>
      </form>
      <Loaded load={load}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No audit entries match.</Empty>
          ) : (
            <>
              <ListTable caption="Audit log" columns={['When', 'Action', 'Actor', 'Resource']}>
                {page.data.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Time iso={a.createdAt} />
                    </td>
                    <td>{a.action}</td>
                    <td>
                      {a.actorType ?? ''} {a.actorId ?? ''}
                    </td>
                    <td>
                      {a.resource ?? ''} {a.resourceId ?? ''}
                    </td>
                  </tr>
                ))}
              </ListTable>
              <CursorPager cursors={cursors} page={page} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
