import { featureNotImplemented } from './resend-errors';
import { ATTACHMENT_FIELDS, FIELD_NAMES } from './resend-names';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function renamed(record: Record<string, unknown>, names: Readonly<Record<string, string>>) {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [names[key] ?? key, value]));
}

/** A Resend option Mailroom does not implement: 501 naming it, before anything is stored. */
function unsupportedOption(body: Record<string, unknown>): string | undefined {
  if (body.template !== undefined) return 'Sending with a template (`template`)';
  if (body.topic_id !== undefined) return 'Topics (`topic_id`)';
  const attachments = Array.isArray(body.attachments) ? (body.attachments as unknown[]) : [];
  if (attachments.some((a) => isRecord(a) && a.path !== undefined))
    return 'Attachments fetched from a URL (`attachments[].path`)';
  return undefined;
}

/**
 * A Resend send body as `POST /v1/emails` takes it (the request mapper of the Resend send):
 * Resend's names renamed, Resend options Mailroom lacks refused (501). The /v1 operation then
 * validates it (one set of rules); its errors name the fields as the caller wrote them.
 */
export function resendSendBody(json: unknown): unknown {
  if (!isRecord(json)) return json;
  const feature = unsupportedOption(json);
  if (feature !== undefined) throw featureNotImplemented(`${feature} is not supported by Mailroom`);
  const mapped = renamed(json, FIELD_NAMES);
  if (Array.isArray(mapped.attachments)) {
    mapped.attachments = (mapped.attachments as unknown[]).map((a) =>
      isRecord(a) ? renamed(a, ATTACHMENT_FIELDS) : a,
    );
  }
  return mapped;
}
