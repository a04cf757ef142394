// Screen 10: the operator's accounts (status, volume), suspend/reinstate with a reason,
// limits, and the audit log with filters. Session-authenticated /v1/operator endpoints.
import { useEffect, useState } from 'preact/hooks';
import type { AuditPage, CreatedInvitation, InvitationList, OperatorAccountPage } from '../api';
import { del, get, post, qs } from '../api';
import { CursorPager, ListTable, useCursors } from '../list';
import { Badge, Empty, ErrorBox, Loaded, PageTitle, Time, dayBound, field, useAction, useLoad } from '../ui';
import { actorWords, reasonOf, resourceWords } from './audit-words';
import { LimitsForm, StatusForm } from './operator-account-forms';

type OperatorAccount = OperatorAccountPage['data'][number];

/** The most accounts one page of GET /v1/operator/accounts holds (its `limit` is 1-100). */
const ACCOUNTS_SHOWN = 100;

/** The account form open under the table, if any. */
type Editing = { readonly kind: 'limits' | 'status'; readonly id: string } | null;

export function Operator() {
  const [accounts, reload] = useLoad(
    () => get<OperatorAccountPage>(`/v1/operator/accounts?limit=${ACCOUNTS_SHOWN}`),
    'op-accounts',
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Bumped after each action: the audit log reloads and shows the entry just written.
  const [auditVersion, setAuditVersion] = useState(0);
  const open = (kind: 'limits' | 'status', id: string) => {
    setNotice(null);
    setEditing({ kind, id });
  };
  const done = async (message: string) => {
    setEditing(null);
    setNotice(message);
    await reload();
    setAuditVersion((v) => v + 1);
  };
  return (
    <section>
      <PageTitle>Operator</PageTitle>
      <h2>Accounts</h2>
      <Loaded load={accounts}>
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No accounts.</Empty>
          ) : (
            <>
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
                            aria-expanded={editing?.kind === 'limits' && editing.id === a.id}
                            onClick={() => open('limits', a.id)}
                          >
                            Limits
                          </button>
                        </td>
                        <td>
                          <button
                            type="button"
                            class={a.status === 'ACTIVE' ? 'small danger' : 'small'}
                            aria-label={`${a.status === 'ACTIVE' ? 'Suspend' : 'Reinstate'} ${a.email}`}
                            aria-expanded={editing?.kind === 'status' && editing.id === a.id}
                            onClick={() => open('status', a.id)}
                          >
                            {a.status === 'ACTIVE' ? 'Suspend' : 'Reinstate'}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {list.hasMore ? (
                <p class="muted">
                  The newest {ACCOUNTS_SHOWN} accounts; <code>npm run ctl -- accounts list</code> lists every
                  one.
                </p>
              ) : null}
              <AccountForm
                editing={editing}
                accounts={list.data}
                onDone={done}
                onCancel={() => setEditing(null)}
              />
            </>
          )
        }
      </Loaded>
      {notice ? (
        <p role="status" class="ok">
          {notice}
        </p>
      ) : null}
      <Invitations />
      <AuditLog version={auditVersion} />
    </section>
  );
}

function AccountForm(props: {
  editing: Editing;
  accounts: readonly OperatorAccount[];
  onDone: (notice: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { editing } = props;
  const account = editing ? props.accounts.find((a) => a.id === editing.id) : undefined;
  if (!editing || !account) return null;
  // Keyed by account and kind, so switching rows starts a fresh form with that row's values.
  const key = `${editing.kind}-${account.id}-${account.status}`;
  return editing.kind === 'limits' ? (
    <LimitsForm key={key} account={account} onDone={props.onDone} onCancel={props.onCancel} />
  ) : (
    <StatusForm key={key} account={account} onDone={props.onDone} onCancel={props.onCancel} />
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

function AuditLog(props: { version: number }) {
  const [filters, setFilters] = useState({ action: '', actor: '', from: '', to: '' });
  const cursors = useCursors();
  const path = `/v1/operator/audit${qs({ ...filters, cursor: cursors.cursor })}`;
  const [load, reload] = useLoad(() => get<AuditPage>(path), path);
  useEffect(() => {
    if (props.version > 0) void reload();
  }, [props.version]);
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
          <input name="actor" placeholder="an email or cli:name" />
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
                    <td class="mono">{a.action}</td>
                    <td>{actorWords(a)}</td>
                    <td>
                      {resourceWords(a)}
                      {reasonOf(a) ? <div class="muted">Reason: {reasonOf(a)}</div> : null}
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
