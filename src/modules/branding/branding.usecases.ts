import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { sha256Hex } from '../../shared/secrets';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { invalidLogo, logoNotFound } from './branding.errors';
import * as repo from './branding.repository';
import type { Bodies } from './logo-token';
import { logoUrl, resolveLogoToken, resolveLogoTokenText } from './logo-token';
import type { LogoType } from './logo-type';
import { LOGO_TYPES, sniffLogoType } from './logo-type';

/** Largest logo accepted: a footer image, not a banner. */
export const LOGO_MAX_BYTES = 512 * 1024;

export interface BrandingView {
  readonly logo: {
    readonly url: string;
    readonly contentType: string;
    readonly size: number;
    readonly updatedAt: string;
  } | null;
  readonly footer: { readonly html: string | null; readonly text: string | null };
}

interface Deps {
  readonly db: Kysely<Database>;
  readonly baseUrl: string;
  readonly userId: string;
}

export async function getBranding(deps: Deps): Promise<BrandingView> {
  const row = await repo.findBranding(deps.db, deps.userId);
  const logo =
    row?.logo_content_type && row.logo_size !== null && row.logo_updated_at
      ? {
          url: logoUrl(deps.baseUrl, deps.userId),
          contentType: row.logo_content_type,
          size: row.logo_size,
          updatedAt: row.logo_updated_at,
        }
      : null;
  return { logo, footer: { html: row?.footer_html ?? null, text: row?.footer_text ?? null } };
}

/**
 * Stores the account's logo. The type is read from the bytes (PNG and JPEG by
 * their signatures, SVG by its root element); a declared Content-Type other than
 * a generic one must agree with them.
 */
export async function uploadLogo(
  deps: Deps & { readonly actor: Actor; readonly bytes: Buffer; readonly declaredType: string | undefined },
): Promise<BrandingView> {
  const type = sniffLogoType(deps.bytes);
  if (!type) throw invalidLogo(undefined, { accepted: LOGO_TYPES });
  const declared = deps.declaredType?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && declared !== type) {
    throw invalidLogo(`The bytes are ${type}, but Content-Type says ${declared}`, {
      detected: type,
      declared,
    });
  }
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveLogo(trx, deps.userId, {
      bytes: deps.bytes,
      contentType: type,
      sha256: sha256Hex(deps.bytes),
    });
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'branding.logo_uploaded',
      resource: 'branding',
      resourceId: deps.userId,
      details: { contentType: type, size: deps.bytes.length },
    });
  });
  return getBranding(deps);
}

export async function removeLogo(deps: Deps & { readonly actor: Actor }): Promise<BrandingView> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteLogo(trx, deps.userId))) throw logoNotFound();
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'branding.logo_deleted',
      resource: 'branding',
      resourceId: deps.userId,
    });
  });
  return getBranding(deps);
}

/** Replaces the footer; an omitted or null part is removed. */
export async function setFooter(
  deps: Deps & {
    readonly actor: Actor;
    readonly footer: { readonly html?: string | null | undefined; readonly text?: string | null | undefined };
  },
): Promise<BrandingView> {
  const footer = { html: deps.footer.html || null, text: deps.footer.text || null };
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveFooter(trx, deps.userId, footer);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'branding.footer_updated',
      resource: 'branding',
      resourceId: deps.userId,
      details: { htmlLength: footer.html?.length ?? 0, textLength: footer.text?.length ?? 0 },
    });
  });
  return getBranding(deps);
}

export interface ServedLogo {
  readonly bytes: Buffer;
  readonly contentType: LogoType;
  readonly etag: string;
  readonly lastModified: Date;
}

/** The logo behind `/public/branding/<owner_id>/logo`; LOGO_NOT_FOUND for none, unknown or suspended. */
export async function publicLogo(db: Kysely<Database>, ownerId: string): Promise<ServedLogo> {
  const logo = /^usr_[0-9a-z]{26}$/.test(ownerId) ? await repo.findPublicLogo(db, ownerId) : undefined;
  const type = logo ? LOGO_TYPES.find((t) => t === logo.contentType) : undefined;
  if (!logo || !type) throw logoNotFound();
  return {
    bytes: logo.bytes,
    contentType: type,
    etag: `"${logo.sha256}"`,
    lastModified: new Date(logo.updatedAt),
  };
}

/**
 * The account's footer ready for a message, `{{logo_url}}` resolved (for the
 * MIME build, with appendFooter): null parts when the account set none.
 */
export async function brandingForSend(deps: Deps): Promise<Bodies> {
  const row = await repo.findBranding(deps.db, deps.userId);
  if (!row) return { html: null, text: null };
  const ctx = { baseUrl: deps.baseUrl, ownerId: deps.userId, hasLogo: row.logo_content_type !== null };
  return {
    html: row.footer_html === null ? null : resolveLogoToken(row.footer_html, ctx),
    text: row.footer_text === null ? null : resolveLogoTokenText(row.footer_text, ctx),
  };
}
