// Screen 8: inbound mail: list and detail with SPF/DKIM/DMARC badges, attachments, raw.
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { InboundMessage, InboundPage, InboundSummary } from '../api';
import { get, qs } from '../api';
import { CursorPager, ListTable, useCursors } from '../list';
import { Badge, Empty, Loaded, PageTitle, Time, useLoad, field } from '../ui';
import { Preview } from './email-detail';

function AuthBadges(props: { m: InboundSummary }) {
  return (
    <span class="badges" aria-label="Authentication results">
      <Badge value={`SPF ${props.m.spfResult ?? 'none'}`} tone={tone(props.m.spfResult)} />{' '}
      <Badge value={`DKIM ${props.m.dkimResult ?? 'none'}`} tone={tone(props.m.dkimResult)} />{' '}
      <Badge value={`DMARC ${props.m.dmarcResult ?? 'none'}`} tone={tone(props.m.dmarcResult)} />
    </span>
  );
}

/** A message the worker could not parse: only its envelope and raw bytes are known. */
function UnparsedBadge(props: { m: InboundSummary }) {
  return props.m.unparsed ? (
    <span title={props.m.unparsedReason ?? undefined}>
      {' '}
      <Badge value="unparsed" tone="warn" />
    </span>
  ) : null;
}

function tone(result: string | null): 'good' | 'bad' | 'warn' | 'neutral' {
  if (result === 'pass') return 'good';
  if (result === 'fail' || result === 'permerror') return 'bad';
  if (result === 'softfail' || result === 'temperror') return 'warn';
  return 'neutral';
}

export function InboundList() {
  const [search, setSearch] = useState('');
  const cursors = useCursors();
  const path = `/v1/inbound${qs({ search, limit: 25, cursor: cursors.cursor })}`;
  const [load] = useLoad(() => get<InboundPage>(path), path);
  return (
    <section>
      <PageTitle>Inbound</PageTitle>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          cursors.reset();
          setSearch(field(new FormData(e.currentTarget), 'search'));
        }}
      >
        <label>
          Search
          <input name="search" type="search" />
        </label>
        <button type="submit">Search</button>
      </form>
      <Loaded load={load}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No inbound mail. Enable receiving on a domain and point its MX here.</Empty>
          ) : (
            <>
              <ListTable
                caption="Received messages"
                columns={['From', 'Subject', 'Authentication', 'Received']}
              >
                {page.data.map((m) => (
                  <tr key={m.id} class={m.read ? '' : 'unread'}>
                    <td>{m.from ?? '—'}</td>
                    <td>
                      <Link href={`/inbound/${m.id}`}>{m.subject ?? '(no subject)'}</Link>
                      <UnparsedBadge m={m} />
                      {m.attachmentCount > 0 ? (
                        <span class="muted"> · {m.attachmentCount} attachment(s)</span>
                      ) : null}
                    </td>
                    <td>
                      <AuthBadges m={m} />
                    </td>
                    <td>
                      <Time iso={m.receivedAt} />
                    </td>
                  </tr>
                ))}
              </ListTable>
              <CursorPager cursors={cursors} page={page} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

export function InboundDetail(props: { id: string }) {
  const path = `/v1/inbound/${encodeURIComponent(props.id)}`;
  const [load] = useLoad(() => get<InboundMessage>(path), path);
  return (
    <section>
      <p>
        <Link href="/inbound">← Inbound</Link>
      </p>
      <Loaded load={load}>
        {(m) => (
          <>
            <PageTitle>{m.subject ?? '(no subject)'}</PageTitle>
            {m.unparsed ? (
              <p class="banner warn" role="status">
                <Badge value="unparsed" tone="warn" /> This message could not be parsed:{' '}
                {m.unparsedReason ?? 'unknown reason'}. Only its envelope is shown; download the raw message
                to read it.
              </p>
            ) : null}
            <dl class="facts">
              <dt>From</dt>
              <dd>{m.from ?? '—'}</dd>
              <dt>Envelope sender</dt>
              <dd class="mono">{m.mailFrom || '<>'}</dd>
              <dt>To</dt>
              <dd>{m.to.join(', ')}</dd>
              {m.unparsed ? (
                <>
                  <dt>Envelope recipients</dt>
                  <dd class="mono">{m.rcptTo.join(', ')}</dd>
                </>
              ) : null}
              <dt>Authentication</dt>
              <dd>
                <AuthBadges m={m} />
              </dd>
              <dt>Received</dt>
              <dd>
                <Time iso={m.receivedAt} /> from <span class="mono">{m.remoteIp ?? '?'}</span>
              </dd>
            </dl>
            <div class="actions">
              <a class="button secondary" href={`${path}/raw`} download={`${m.id}.eml`}>
                Download raw (.eml)
              </a>
            </div>
            {m.attachments.length > 0 ? (
              <>
                <h2>Attachments</h2>
                <ul>
                  {m.attachments.map((a) => (
                    <li key={a.id}>
                      <a href={`${path}/attachments/${a.id}`} download={a.filename ?? a.id}>
                        {a.filename ?? a.id}
                      </a>{' '}
                      <span class="muted">
                        {a.contentType}, {a.size} bytes
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {m.unparsed ? null : (
              <>
                <Preview base={path} />
                <h2>Headers</h2>
                <pre class="headers">{m.headers.map((h) => `${h.name}: ${h.value}`).join('\n')}</pre>
              </>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
