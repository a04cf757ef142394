import type { Kysely, Selectable } from 'kysely';
import type { AccountBrandingTable, Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';

export type BrandingRow = Omit<Selectable<AccountBrandingTable>, 'logo'>;

const WITHOUT_LOGO_BYTES = [
  'user_id',
  'logo_content_type',
  'logo_size',
  'logo_sha256',
  'logo_updated_at',
  'footer_html',
  'footer_text',
  'updated_at',
] as const;

/** The account's branding without the logo bytes. */
export async function findBranding(db: Kysely<Database>, userId: string): Promise<BrandingRow | undefined> {
  return db
    .selectFrom('account_branding')
    .select(WITHOUT_LOGO_BYTES)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface LogoInput {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly sha256: string;
}

export async function saveLogo(db: Kysely<Database>, userId: string, logo: LogoInput): Promise<void> {
  const at = isoNow();
  const set = {
    logo: logo.bytes,
    logo_content_type: logo.contentType,
    logo_size: logo.bytes.length,
    logo_sha256: logo.sha256,
    logo_updated_at: at,
    updated_at: at,
  };
  await db
    .insertInto('account_branding')
    .values({ user_id: userId, footer_html: null, footer_text: null, ...set })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
    .execute();
}

/** Removes the logo; false when there was none. */
export async function deleteLogo(db: Kysely<Database>, userId: string): Promise<boolean> {
  const res = await db
    .updateTable('account_branding')
    .set({
      logo: null,
      logo_content_type: null,
      logo_size: null,
      logo_sha256: null,
      logo_updated_at: null,
      updated_at: isoNow(),
    })
    .where('user_id', '=', userId)
    .where('logo', 'is not', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function saveFooter(
  db: Kysely<Database>,
  userId: string,
  footer: { readonly html: string | null; readonly text: string | null },
): Promise<void> {
  const set = { footer_html: footer.html, footer_text: footer.text, updated_at: isoNow() };
  await db
    .insertInto('account_branding')
    .values({
      user_id: userId,
      logo: null,
      logo_content_type: null,
      logo_size: null,
      logo_sha256: null,
      logo_updated_at: null,
      ...set,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
    .execute();
}

export interface PublicLogo {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly sha256: string;
  readonly updatedAt: string;
}

/** The logo of an active account (a suspended account's logo is not served). */
export async function findPublicLogo(db: Kysely<Database>, userId: string): Promise<PublicLogo | undefined> {
  const row = await db
    .selectFrom('account_branding')
    .innerJoin('users', 'users.id', 'account_branding.user_id')
    .select([
      'account_branding.logo',
      'account_branding.logo_content_type',
      'account_branding.logo_sha256',
      'account_branding.logo_updated_at',
    ])
    .where('account_branding.user_id', '=', userId)
    .where('users.status', '=', 'ACTIVE')
    .executeTakeFirst();
  if (!row?.logo || !row.logo_content_type || !row.logo_sha256 || !row.logo_updated_at) return undefined;
  return {
    bytes: row.logo,
    contentType: row.logo_content_type,
    sha256: row.logo_sha256,
    updatedAt: row.logo_updated_at,
  };
}
