import { parseArgs } from 'node:util';
import {
  configTable,
  invokingUser,
  loadConfig,
  mailHostnameWarning,
  parseConfig,
  redactDatabaseUrl,
} from '../config';
import type { Db } from '../db/connect';
import { migrate, openDatabase } from '../db/connect';
import { listUsers } from '../modules/accounts/accounts.repository';
import type { AccountView } from '../modules/accounts/accounts.usecases';
import {
  accountView,
  reinstateAccount,
  resolveAccount,
  setAccountLimits,
  setRole,
  suspendAccount,
} from '../modules/accounts/accounts.usecases';
import { emailField } from '../modules/accounts/accounts.schemas';
import {
  INVITATION_DAYS_MAX,
  createInvitation,
  listInvitations,
  revokeInvitation,
} from '../modules/accounts/invitations';
import { createAccountByOperator } from '../modules/accounts/operator-create-account';
import type { Actor, AuditEntry } from '../modules/audit/audit.repository';
import { listAudit } from '../modules/audit/audit.repository';
import type { AuditNames } from '../modules/audit/audit-names.repository';
import { withAuditNames } from '../modules/audit/audit-names.repository';
import { isAppError } from '../shared/app-error';
import { BACKUP_USAGE, backupCommand, restoreCommand } from './backup/backup-command';
import { bouncesClassifyCommand } from './bounces-classify';
import { configDocsMarkdown } from './config-docs';
import { DOCTOR_USAGE, doctorCommand } from './doctor/doctor-command';
import { MIGRATE_USAGE, migrateToPostgresCommand } from './migrate-to-postgres/migrate-to-postgres-command';
import { restrictNewFiles } from '../shared/private-files';
import type { Column } from './table';
import { formatTable } from './table';

const USAGE = `usage: npm run ctl -- <command>

  accounts list [--json]                     every account (a table; --json: JSON)
  accounts invite <email> [--days N]         an invitation to register (SIGNUP_MODE=invite): prints
                                             its URL and token once; single use, expires (7 days)
  accounts invitations                       pending invitations
  accounts revoke-invitation <inv_id>
  accounts create <email> [--name TEXT]      an account with a generated password, printed once
  accounts show <id|email>
  accounts suspend <id|email> --reason TEXT  every key and session answers ACCOUNT_SUSPENDED at once
  accounts reinstate <id|email>
  accounts grant-operator <id|email>         the operator role: /v1/operator/… and the dashboard's
  accounts revoke-operator <id|email>        operator screens (sessions only; next request)
  accounts limits <id|email> [--per-hour N|default] [--per-day N|default]
                                             the operator's override (raise or throttle); the
                                             account cannot lift it, its own lower limits still apply
  audit list [--account <id|email>] [--action NAME] [--since ISO] [--limit N] [--json]
                                             newest first (a table; --json: one JSON line each)
  config check                               validate the environment, list every invalid key
  config show                                effective settings (secrets hidden)
  config docs                                the settings table as Markdown
  bounces classify FILE...                   read bounce/complaint reports: one JSON line per file
${BACKUP_USAGE}
${DOCTOR_USAGE}
${MIGRATE_USAGE}
`;

const operator: Actor = {
  type: 'operator',
  id: `cli:${invokingUser()}`,
  ip: null,
  userAgent: 'mailroom-ctl',
};

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

const ACCOUNT_COLUMNS: readonly Column<AccountView>[] = [
  { header: 'ID', cell: (a) => a.id },
  { header: 'EMAIL', cell: (a) => a.email, max: 50 },
  { header: 'STATUS', cell: (a) => a.status },
  { header: 'ROLE', cell: (a) => a.role },
  { header: 'PER HOUR', cell: (a) => a.emailsPerHour ?? 'default' },
  { header: 'PER DAY', cell: (a) => a.emailsPerDay ?? 'default' },
  { header: 'CREATED', cell: (a) => a.createdAt.slice(0, 19).replace('T', ' ') },
];

type NamedEntry = AuditEntry & AuditNames;

/** Who did it, in words: the account's email, the operator's login user, the key's name. */
function actorWords(e: NamedEntry): string {
  const id = e.actorId ?? '';
  switch (e.actorType) {
    case 'user':
      return e.actorEmail ?? `account ${id}`;
    case 'operator':
      return id.startsWith('cli:') ? `operator ${id.slice(4)} (ctl)` : `operator ${e.actorEmail ?? id}`;
    case 'api_key':
      return `API key ${e.actorKeyName ?? id}`;
    default:
      return e.actorType;
  }
}

const AUDIT_COLUMNS: readonly Column<NamedEntry>[] = [
  { header: 'TIME', cell: (e) => e.createdAt.slice(0, 19).replace('T', ' ') },
  { header: 'ACTOR', cell: (e) => actorWords(e), max: 44 },
  { header: 'ACTION', cell: (e) => e.action },
  {
    header: 'RESOURCE',
    cell: (e) => {
      const name = e.resourceName ?? e.resourceId;
      return name ? `${e.resource} ${name}` : e.resource;
    },
    max: 44,
  },
  { header: 'ACCOUNT', cell: (e) => e.accountEmail ?? e.userId, max: 44 },
  { header: 'FROM', cell: (e) => e.ip },
];

function limitArg(v: string | undefined): number | null | undefined {
  if (v === undefined) return undefined;
  if (v === 'default') return null;
  if (!/^\d+$/.test(v)) throw new Error(`expected a whole number or "default", got ${v}`);
  return Number(v);
}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const { config } = loadConfig();
  const db = openDatabase(config.databaseUrl, { poolSize: 2, applicationName: 'mailroom-ctl' });
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

async function accounts(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      reason: { type: 'string' },
      'per-hour': { type: 'string' },
      'per-day': { type: 'string' },
      days: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [sub, ref] = positionals;
  const { config } = loadConfig();
  await withDb(async (db) => {
    if (sub === 'list') {
      const listed = (await listUsers(db, 10_000)).map(accountView);
      if (values.json) return print(listed);
      return void process.stdout.write(formatTable(ACCOUNT_COLUMNS, listed, 'no accounts'));
    }
    if (sub === 'invitations') return print(await listInvitations({ db }));
    if (!ref) throw new Error(USAGE);
    switch (sub) {
      case 'invite': {
        const days = values.days === undefined ? undefined : Number(values.days);
        if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > INVITATION_DAYS_MAX))
          throw new Error(`--days must be a whole number from 1 to ${INVITATION_DAYS_MAX}`);
        const email = emailField.parse(ref);
        return print(
          await createInvitation({
            db,
            actor: operator,
            baseUrl: config.baseUrl,
            email,
            expiresInDays: days,
          }),
        );
      }
      case 'revoke-invitation':
        await revokeInvitation({ db, actor: operator, id: ref });
        return print({ revoked: ref });
      case 'create': {
        const email = emailField.parse(ref);
        return print(
          await createAccountByOperator({ db, actor: operator, email, name: values.name ?? email }),
        );
      }
      case 'show':
        return print(accountView(await resolveAccount(db, ref)));
      case 'suspend':
        if (!values.reason) throw new Error('accounts suspend needs --reason');
        return print(await suspendAccount({ db, actor: operator, ref, reason: values.reason }));
      case 'reinstate':
        return print(await reinstateAccount({ db, actor: operator, ref }));
      case 'grant-operator':
        return print(await setRole({ db, actor: operator, ref, role: 'operator' }));
      case 'revoke-operator':
        return print(await setRole({ db, actor: operator, ref, role: 'user' }));
      case 'limits': {
        const limits = {
          emailsPerHour: limitArg(values['per-hour']),
          emailsPerDay: limitArg(values['per-day']),
        };
        if (limits.emailsPerHour === undefined && limits.emailsPerDay === undefined) {
          throw new Error('accounts limits needs --per-hour and/or --per-day');
        }
        return print(await setAccountLimits({ db, actor: operator, ref, limits }));
      }
      default:
        throw new Error(USAGE);
    }
  });
}

async function audit(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      action: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string', default: '100' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals[0] !== 'list') throw new Error(USAGE);
  await withDb(async (db) => {
    const userId = values.account === undefined ? undefined : (await resolveAccount(db, values.account)).id;
    const entries = await listAudit(db, {
      userId,
      action: values.action,
      since: values.since,
      limit: Number(values.limit),
    });
    if (values.json) {
      for (const entry of entries) process.stdout.write(`${JSON.stringify(entry)}\n`);
      return;
    }
    const named = await withAuditNames(db, entries);
    process.stdout.write(formatTable(AUDIT_COLUMNS, named, 'no audit entries'));
  });
}

function config(args: string[]): void {
  switch (args[0]) {
    case 'check': {
      const checked = parseConfig();
      process.stdout.write('configuration is valid\n');
      // Valid but poor: said, without failing the check (a laptop trial may not care).
      const hostnameWarning = mailHostnameWarning(checked);
      if (hostnameWarning !== undefined) process.stderr.write(`warning: ${hostnameWarning}\n`);
      return;
    }
    case 'show': {
      const parsed = parseConfig() as Record<string, unknown>;
      const shown: Record<string, unknown> = {};
      for (const [prop, key] of Object.entries(configTable)) {
        shown[key.env] = key.secret && parsed[prop] !== undefined ? '[set]' : parsed[prop];
      }
      // A PostgreSQL URL may carry the password: shown without it.
      shown.DATABASE_URL = redactDatabaseUrl(String(parsed.databaseUrl));
      return print(shown);
    }
    case 'docs':
      process.stdout.write(`${configDocsMarkdown()}\n`);
      return;
    default:
      throw new Error(USAGE);
  }
}

async function main(argv: string[]): Promise<void> {
  const [group, ...rest] = argv;
  switch (group) {
    case 'accounts':
      return accounts(rest);
    case 'audit':
      return audit(rest);
    case 'config':
      return config(rest);
    case 'bounces':
      if (rest[0] !== 'classify' || rest.length < 2) throw new Error(USAGE);
      return bouncesClassifyCommand(rest.slice(1));
    case 'backup':
      process.exitCode = await backupCommand(rest);
      return;
    case 'restore':
      process.exitCode = await restoreCommand(rest);
      return;
    case 'doctor':
      process.exitCode = await doctorCommand(rest);
      return;
    case 'migrate-to-postgres':
      process.exitCode = await migrateToPostgresCommand(rest);
      return;
    default:
      process.stdout.write(USAGE);
      if (group !== undefined && group !== 'help' && group !== '--help') process.exitCode = 64;
  }
}

restrictNewFiles();
main(process.argv.slice(2)).catch((err: unknown) => {
  const message = isAppError(err)
    ? `${err.code}: ${err.message}`
    : err instanceof Error
      ? err.message
      : String(err);
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
});
