/**
 * The Resend send's field names against /v1's: the one table the request mapper
 * (resend-send-body.ts), the validation errors and the error messages (resend-errors.ts) read.
 * A /v1 send field that Resend spells otherwise gets one entry here.
 */

/** Resend's snake_case send fields and the /v1 fields they are (parseEmailToApiOptions in the SDK). */
export const FIELD_NAMES: Readonly<Record<string, string>> = {
  reply_to: 'replyTo',
  scheduled_at: 'scheduledAt',
};
export const ATTACHMENT_FIELDS: Readonly<Record<string, string>> = {
  content_type: 'contentType',
  content_id: 'contentId',
};

/** Our names of the renamed fields as the caller wrote them, for the messages a use case words. */
export const RESEND_MESSAGE_NAMES: ReadonlyMap<string, string> = new Map(
  [...Object.entries(FIELD_NAMES), ...Object.entries(ATTACHMENT_FIELDS)].map(([resend, ours]) => [
    ours,
    resend,
  ]),
);

/** The other way, for the fields a validation error names: the caller wrote `reply_to`. */
export const RESEND_SEND_NAMES: ReadonlyMap<string, string> = new Map<string, string>([
  ...RESEND_MESSAGE_NAMES,
  // /v1's own name for what Resend calls content_id.
  ['cid', 'content_id'],
]);
