// Generated from the OpenAPI document (GET /openapi.json) by `npm run build && npm run generate:web-types`
// (scripts/generate-web-types.mjs, with openapi-typescript). Do not edit: change the route
// declarations or the response schemas (src/modules/*/*.responses.ts) and regenerate;
// test/unit/web/web-types.test.ts fails while this file is stale.

export interface paths {
  readonly '/api-keys': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: list the live API keys */
    readonly get: operations['resendListApiKeys'];
    readonly put?: never;
    /** Resend: create an API key; the token is shown once */
    readonly post: operations['resendCreateApiKey'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api-keys/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Resend: revoke an API key */
    readonly delete: operations['resendRemoveApiKey'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/domains': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: list domains */
    readonly get: operations['resendListDomains'];
    readonly put?: never;
    /** Resend: add a domain; answers the DNS records to publish */
    readonly post: operations['resendCreateDomain'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/domains/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: one domain with its records */
    readonly get: operations['resendGetDomain'];
    readonly put?: never;
    readonly post?: never;
    /** Resend: remove a domain that has never sent mail */
    readonly delete: operations['resendRemoveDomain'];
    readonly options?: never;
    readonly head?: never;
    /** Resend: update a domain (receiving capability) */
    readonly patch: operations['resendUpdateDomain'];
    readonly trace?: never;
  };
  readonly '/domains/{id}/verify': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Resend: check the published records now (synchronously, unlike Resend) */
    readonly post: operations['resendVerifyDomain'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/emails': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: list sent emails, newest first */
    readonly get: operations['resendListEmails'];
    readonly put?: never;
    /** Resend: send an email (queued as POST /v1/emails queues it) */
    readonly post: operations['resendSendEmail'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/emails/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: one email */
    readonly get: operations['resendGetEmail'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    /** Resend: reschedule a scheduled email (PATCH /v1/emails/{id}) */
    readonly patch: operations['resendUpdateEmail'];
    readonly trace?: never;
  };
  readonly '/emails/{id}/cancel': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Resend: cancel a scheduled email */
    readonly post: operations['resendCancelEmail'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/emails/batch': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Resend: send up to 100 emails, all queued or none (POST /v1/emails/batch) */
    readonly post: operations['resendSendBatch'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/health': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Liveness; checks no dependency */
    readonly get: operations['health'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/internal/accounts/{id}/limits': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    /** Set an account’s sending limits (may raise above the default; `null` = default) */
    readonly patch: operations['setAccountLimits'];
    readonly trace?: never;
  };
  readonly '/internal/accounts/{id}/reinstate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Reinstate a suspended account */
    readonly post: operations['reinstateAccount'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/internal/accounts/{id}/suspend': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Suspend an account (`{id}`: account id or email); stops its queued mail */
    readonly post: operations['suspendAccount'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/internal/bounces': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Submit a raw bounce or complaint report (DSN, ARF); 202 once stored and queued */
    readonly post: operations['submitBounceReport'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/internal/invitations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Pending invitations, newest first (never their tokens) */
    readonly get: operations['internalListInvitations'];
    readonly put?: never;
    /** Invite an address to register; answers its token and sign-up link once */
    readonly post: operations['internalCreateInvitation'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/internal/invitations/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revoke a pending invitation */
    readonly delete: operations['internalRevokeInvitation'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/metrics': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Prometheus text exposition */
    readonly get: operations['metrics'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/openapi.json': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** This document */
    readonly get: operations['openapi'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/public/branding/{ownerId}/logo': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** An account’s logo for mail clients (no token; ETag, 304 on If-None-Match) */
    readonly get: operations['publicLogo'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/public/unsubscribe/{token}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One-click unsubscribe: a confirmation page with a button (no state change on GET) */
    readonly get: operations['unsubscribePage'];
    readonly put?: never;
    /** RFC 8058 one-click unsubscribe: suppresses the recipient (type unsubscribe); idempotent */
    readonly post: operations['unsubscribeOneClick'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/ready': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Readiness: database, queue store, free disk space, MTA, queue waits (503 `unavailable` when a store fails or a volume is under DISK_FREE_FLOOR_MB; 200 `degraded` when the MTA is down or a queue is starved) */
    readonly get: operations['ready'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/suppressions': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: list suppressed addresses, newest first */
    readonly get: operations['resendListSuppressions'];
    readonly put?: never;
    /** Resend: suppress an address (origin manual) */
    readonly post: operations['resendAddSuppression'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/suppressions/{idOrEmail}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: one suppression, by id or by address */
    readonly get: operations['resendGetSuppression'];
    readonly put?: never;
    readonly post?: never;
    /** Resend: remove a suppression, by id or by address */
    readonly delete: operations['resendRemoveSuppression'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/api-keys': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** List the account’s keys (never their tokens) */
    readonly get: operations['listApiKeys'];
    readonly put?: never;
    /** Create an API key (session token only); the token is shown once */
    readonly post: operations['createApiKey'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/api-keys/{keyId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revoke a key (session token only); effective immediately */
    readonly delete: operations['revokeApiKey'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/change-password': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Change the password; ends every earlier session and answers a fresh one */
    readonly post: operations['changePassword'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/login': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Exchange email and password for a session token */
    readonly post: operations['login'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/logout': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** End every session of the account (bumps the session epoch) and clear the dashboard cookies */
    readonly post: operations['logout'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/me': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The calling account */
    readonly get: operations['me'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/options': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** What a sign-in screen needs before signing in: BASE_URL's origin */
    readonly get: operations['authOptions'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/register': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Create an account; answers a session token */
    readonly post: operations['register'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/branding': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The account’s logo and footer */
    readonly get: operations['getBranding'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/branding/footer': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    /** Replace the footer added to outgoing mail (`{{logo_url}}` allowed) */
    readonly put: operations['setFooter'];
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/branding/logo': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    /** Upload the logo (PNG, JPEG or SVG, at most 512 KiB); the body is the image */
    readonly put: operations['uploadLogo'];
    readonly post?: never;
    /** Remove the logo */
    readonly delete: operations['deleteLogo'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/domains': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** List the account’s domains */
    readonly get: operations['listDomains'];
    readonly put?: never;
    /** Add a sending domain; answers the DNS records to publish */
    readonly post: operations['createDomain'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/domains/{domainId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One domain with its records */
    readonly get: operations['getDomain'];
    readonly put?: never;
    readonly post?: never;
    /** Delete a domain that has never sent mail */
    readonly delete: operations['deleteDomain'];
    readonly options?: never;
    readonly head?: never;
    /** Receiving and sender settings */
    readonly patch: operations['updateDomain'];
    readonly trace?: never;
  };
  readonly '/v1/domains/{domainId}/status-history': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The domain’s status changes with their times, newest first (at most 100) */
    readonly get: operations['getDomainStatusHistory'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/domains/{domainId}/test-email': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Send a test email from the domain, in test mode, to delivered@simulator.mailroom.invalid: captured, never delivered */
    readonly post: operations['sendDomainTestEmail'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/domains/{domainId}/verify': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Check the published records now; SPF and DKIM passing makes the domain VERIFIED */
    readonly post: operations['verifyDomain'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/emails': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** List messages, newest first (keyset pages); filters: status, domainId, tag, recipient, from/to, q; total=1 adds how many match */
    readonly get: operations['listEmails'];
    readonly put?: never;
    /** Queue a message (202 once durably queued; not delivered) */
    readonly post: operations['sendEmail'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/emails/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One message with recipients, events and its delivery state (why it is still queued) */
    readonly get: operations['getEmail'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    /** Move a still-scheduled message to another time */
    readonly patch: operations['rescheduleEmail'];
    readonly trace?: never;
  };
  readonly '/v1/emails/{id}/cancel': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Cancel a message still queued (typically scheduled) */
    readonly post: operations['cancelEmail'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/emails/{id}/preview': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The stored html or text body, inert: its own CSP (sandbox, no scripts, remote images only on request) */
    readonly get: operations['previewEmail'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/emails/{id}/raw': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The message as a download: test mail as captured (signed); live mail as delivery builds it for the MTA */
    readonly get: operations['getEmailRaw'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/emails/batch': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Queue up to 100 messages in one transaction: all are queued or none */
    readonly post: operations['sendEmailBatch'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/inbound': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** List received messages, newest first */
    readonly get: operations['listInbound'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/inbound/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One received message; marks it read */
    readonly get: operations['getInbound'];
    readonly put?: never;
    readonly post?: never;
    /** Delete a received message and its attachments */
    readonly delete: operations['deleteInbound'];
    readonly options?: never;
    readonly head?: never;
    /** Mark read or unread */
    readonly patch: operations['markInbound'];
    readonly trace?: never;
  };
  readonly '/v1/inbound/{id}/attachments/{attachmentId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** An attachment’s bytes (`Content-Disposition: attachment`, nosniff) */
    readonly get: operations['getInboundAttachment'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/inbound/{id}/preview': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The received html or text body, inert: its own CSP (sandbox, no scripts, remote images only on request) */
    readonly get: operations['previewInbound'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/inbound/{id}/raw': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The original message bytes */
    readonly get: operations['getInboundRaw'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/accounts': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Every account, newest first, with status, volume (24 h, 30 d) and limits */
    readonly get: operations['operatorListAccounts'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/accounts/{id}/limits': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    /** Set an account’s sending limits (may raise above the default; `null` = default) */
    readonly put: operations['operatorSetAccountLimits'];
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/accounts/{id}/reinstate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Reinstate a suspended account (the reason is kept in the audit log) */
    readonly post: operations['operatorReinstateAccount'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/accounts/{id}/suspend': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Suspend an account with a reason; stops its queued mail (never the operator’s own) */
    readonly post: operations['operatorSuspendAccount'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/audit': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The audit log of every account, newest first (filters: action, actor (an id, or an account’s email), target, account, from/to) */
    readonly get: operations['operatorListAudit'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/invitations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Pending invitations, newest first (never their tokens) */
    readonly get: operations['operatorListInvitations'];
    readonly put?: never;
    /** Invite an address to register; answers its token and sign-up link once */
    readonly post: operations['operatorCreateInvitation'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/operator/invitations/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revoke a pending invitation */
    readonly delete: operations['operatorRevokeInvitation'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/settings': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Account, limits (effective, override, default) and usage */
    readonly get: operations['getSettings'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/settings/limits': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    /** Lower the account’s own sending limits (`null` returns to the default) */
    readonly patch: operations['lowerLimits'];
    readonly trace?: never;
  };
  readonly '/v1/stats/health-signals': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The calling account’s abuse signals, computed now */
    readonly get: operations['healthSignals'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/stats/overview': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Counts by status, rates and quota usage over the last `days` UTC days */
    readonly get: operations['statsOverview'];
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/suppressions': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** List the account’s suppressed addresses (filters: email exact, q substring, type) */
    readonly get: operations['listSuppressions'];
    readonly put?: never;
    /** Suppress an address */
    readonly post: operations['createSuppression'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/suppressions/{idOrEmail}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One suppression, by id (`sup_…`) or by address */
    readonly get: operations['getSuppression'];
    readonly put?: never;
    readonly post?: never;
    /** Remove a suppression, by id (`sup_…`) or by address */
    readonly delete: operations['deleteSuppression'];
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/webhooks': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** List endpoints */
    readonly get: operations['listWebhooks'];
    readonly put?: never;
    /** Register an endpoint; the signing secret is shown once */
    readonly post: operations['createWebhook'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/webhooks/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One endpoint with its last 25 delivery attempts */
    readonly get: operations['getWebhook'];
    readonly put?: never;
    readonly post?: never;
    /** Delete an endpoint */
    readonly delete: operations['deleteWebhook'];
    readonly options?: never;
    readonly head?: never;
    /** Change url, events or enabled (re-enabling resets the failure count) */
    readonly patch: operations['updateWebhook'];
    readonly trace?: never;
  };
  readonly '/v1/webhooks/{id}/attempts/{attemptId}/redeliver': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Queue a new delivery of an attempt's event to this endpoint: a new deliveryId, the same body; its attempts show in the log */
    readonly post: operations['redeliverWebhookAttempt'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/webhooks/{id}/enable': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Re-enable an endpoint (after auto-disable): the failure count starts afresh */
    readonly post: operations['enableWebhook'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/webhooks/{id}/rotate-secret': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Replace the signing secret; the new one is shown once */
    readonly post: operations['rotateWebhookSecret'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/webhooks/{id}/test': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Queue a `webhook.test` delivery to this endpoint; its attempts show in the log */
    readonly post: operations['testWebhook'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/webhooks': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: list endpoints */
    readonly get: operations['resendListWebhooks'];
    readonly put?: never;
    /** Resend: register an endpoint; the signing secret is shown once */
    readonly post: operations['resendCreateWebhook'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/webhooks/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Resend: one endpoint (without its secret, which is shown only once) */
    readonly get: operations['resendGetWebhook'];
    readonly put?: never;
    readonly post?: never;
    /** Resend: remove an endpoint */
    readonly delete: operations['resendRemoveWebhook'];
    readonly options?: never;
    readonly head?: never;
    /** Resend: change an endpoint’s URL, events or status */
    readonly patch: operations['resendUpdateWebhook'];
    readonly trace?: never;
  };
  readonly '/webhooks/{id}/signing-secret/rotate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Resend: a new signing secret, shown once; the old one stops at once */
    readonly post: operations['resendRotateWebhookSecret'];
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    readonly ApiKey: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly domainId: string | null;
      readonly id: string;
      readonly keyPrefix: string;
      readonly lastUsedAt: string | null;
      /** @enum {string} */
      readonly mode: 'live' | 'test';
      readonly name: string;
      /** @enum {string} */
      readonly permission: 'full_access' | 'sending_access';
      readonly revokedAt: string | null;
    };
    readonly ApiKeyList: {
      readonly data: readonly components['schemas']['ApiKey'][];
    };
    readonly AuditEntry: {
      /** @description The account the entry belongs to: its email */
      readonly accountEmail: string | null;
      readonly action: string;
      /** @description The acting account (user, or operator signed in): its email */
      readonly actorEmail: string | null;
      readonly actorId: string | null;
      /** @description The acting API key: its name */
      readonly actorKeyName: string | null;
      /** @enum {string} */
      readonly actorType: 'user' | 'api_key' | 'operator' | 'system' | 'anonymous';
      /** Format: date-time */
      readonly createdAt: string;
      readonly details: unknown;
      readonly id: string;
      readonly ip: string | null;
      readonly resource: string;
      readonly resourceId: string | null;
      /** @description The resource: an account’s email, a domain, a key’s name, a webhook’s URL, an address */
      readonly resourceName: string | null;
      readonly userAgent: string | null;
      readonly userId: string | null;
    };
    readonly AuditPage: {
      readonly data: readonly components['schemas']['AuditEntry'][];
      readonly hasMore: boolean;
      readonly nextCursor: string | null;
    };
    readonly AuthOptions: {
      /** @description BASE_URL's origin (scheme, host, port): the one origin the dashboard's state changes are accepted from. */
      readonly origin: string;
    };
    readonly BatchAccepted: {
      readonly data: readonly components['schemas']['SendAccepted'][];
    };
    readonly BounceAccepted: {
      readonly id: string;
      /** @constant */
      readonly status: 'queued';
    };
    readonly Branding: {
      readonly footer: {
        readonly html: string | null;
        readonly text: string | null;
      };
      readonly logo: {
        readonly contentType: string;
        readonly size: number;
        /** Format: date-time */
        readonly updatedAt: string;
        readonly url: string;
      } | null;
    };
    readonly Capture: {
      readonly capturedAt: string | null;
      readonly html: string | null;
      readonly raw: string | null;
      readonly sizeBytes: number | null;
      /** @enum {string} */
      readonly state: 'pending' | 'captured' | 'pruned' | 'none';
      readonly text: string | null;
      readonly unverifiedDomain: boolean;
    };
    readonly CheckResult: {
      /** @enum {string} */
      readonly code?:
        | 'MISSING_RECORD'
        | 'MULTIPLE_SPF_RECORDS'
        | 'INCLUDE_MISSING'
        | 'KEY_MISMATCH'
        | 'INVALID_RECORD'
        | 'LOOKUP_FAILED';
      readonly expected?: string;
      readonly found?: readonly string[];
      readonly message?: string;
      readonly verified: boolean;
    };
    readonly CreatedApiKey: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly domainId: string | null;
      readonly id: string;
      readonly keyPrefix: string;
      /** @enum {string} */
      readonly mode: 'live' | 'test';
      readonly name: string;
      /** @enum {string} */
      readonly permission: 'full_access' | 'sending_access';
      /** @description The secret `re_live_…` (or `re_test_…` for a test key); shown only in this response. */
      readonly token: string;
      readonly warning: string;
    };
    readonly CreatedInvitation: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly createdBy: string;
      readonly email: string;
      /** Format: date-time */
      readonly expiresAt: string;
      readonly id: string;
      readonly token: string;
      readonly url: string;
    };
    readonly CreatedWebhook: {
      readonly consecutiveFailures: number;
      /** Format: date-time */
      readonly createdAt: string;
      readonly disabledAt: string | null;
      readonly disabledReason: string | null;
      readonly enabled: boolean;
      readonly events: readonly (
        | 'email.sent'
        | 'email.delivered'
        | 'email.bounced'
        | 'email.failed'
        | 'email.complained'
        | 'email.received'
        | 'email.unsubscribed'
      )[];
      readonly id: string;
      readonly lastFailureAt: string | null;
      readonly lastSuccessAt: string | null;
      /** @enum {string} */
      readonly payloadFormat: 'mailroom' | 'resend';
      /** @description Signing secret; shown once. */
      readonly secret: string;
      /** Format: date-time */
      readonly updatedAt: string;
      readonly url: string;
      /** @description Present when the endpoint was saved but will likely fail, e.g. its host does not resolve. */
      readonly warnings?: readonly string[];
    };
    readonly Deleted: {
      /** @constant */
      readonly deleted: true;
      readonly id: string;
    };
    readonly DeletedDomain: {
      /** @constant */
      readonly deleted: true;
      readonly domain: string;
      readonly id: string;
    };
    readonly Delivery: {
      readonly attempts: number;
      /** @description Each bounced recipient's last reply read in plain words: hard (the address cannot receive mail: suppressed, live mail only) or soft (not suppressed), with the classifier's reason. */
      readonly bounces: readonly {
        readonly explanation: string;
        /** @enum {string} */
        readonly kind: 'hard' | 'soft';
        readonly reason: string;
        readonly recipient: string;
      }[];
      readonly lastDeferral: {
        /** Format: date-time */
        readonly at: string;
        readonly explanation: string;
        readonly reply: string;
      } | null;
      readonly nextAttemptAt: string | null;
      /** @enum {string} */
      readonly state: 'scheduled' | 'queued' | 'retrying' | 'sending' | 'sent' | 'deferred' | 'done';
      readonly summary: string;
    };
    readonly DnsRecord: {
      readonly description: string;
      readonly host: string;
      readonly name: string;
      /** @description MX only. */
      readonly priority?: number;
      /** @enum {string} */
      readonly purpose: 'spf' | 'dkim' | 'dmarc' | 'return_path' | 'mx';
      readonly required: boolean;
      readonly ttl: number;
      /** @enum {string} */
      readonly type: 'TXT' | 'CNAME' | 'MX';
      /** @description Only when `usable` is false: why, and the setting to change. */
      readonly unusableReason?: string;
      /** @description False when the record names a host of this server that is no public DNS name (MAIL_HOSTNAME unset or local): published, it cannot work. */
      readonly usable: boolean;
      readonly value: string;
    };
    readonly Domain: {
      readonly addresses: readonly string[];
      /** Format: date-time */
      readonly createdAt: string;
      readonly domain: string;
      readonly id: string;
      readonly inboundLabel: string;
      readonly lastCheckedAt: string | null;
      readonly receiveEnabled: boolean;
      readonly records: readonly components['schemas']['DnsRecord'][];
      readonly restrictSenders: boolean;
      /** @enum {string} */
      readonly status: 'PENDING' | 'VERIFIED' | 'FAILED';
      /** @description Delivery adds a Mailroom-served one-click List-Unsubscribe (RFC 8058) to single-recipient mail without its own */
      readonly unsubscribeLink: boolean;
      /** Format: date-time */
      readonly updatedAt: string;
      readonly verifiedAt: string | null;
    };
    readonly DomainList: {
      readonly data: readonly components['schemas']['Domain'][];
    };
    readonly DomainStatusChange: {
      /** Format: date-time */
      readonly at: string;
      /** @description The verification's result per check (`pass` or its code); null for creation and backfill */
      readonly checks: {
        readonly [key: string]: string;
      } | null;
      /** @description Null on the creation entry */
      readonly from: ('PENDING' | 'VERIFIED' | 'FAILED') | null;
      /** @enum {string} */
      readonly to: 'PENDING' | 'VERIFIED' | 'FAILED';
      /**
       * @description What made the change: creation, POST verify, the background re-check, or backfilled at upgrade
       * @enum {string}
       */
      readonly trigger: 'created' | 'api' | 'recheck' | 'migration';
    };
    readonly DomainStatusHistory: {
      readonly data: readonly components['schemas']['DomainStatusChange'][];
    };
    readonly Email: {
      /** @description Only on GET /v1/emails/{id}: the attachments sent through the API, in order (not their content). Empty for a message submitted over SMTP, whose attachments are inside its raw message. */
      readonly attachments?: readonly {
        readonly contentType: string;
        readonly filename: string;
        /** @description Referenced from the HTML by Content-ID */
        readonly inline: boolean;
        readonly sizeBytes: number;
      }[];
      readonly attempts: number;
      /** @description Only on GET /v1/emails/{id}: null for live mail, the capture of test mail. */
      readonly capture?: components['schemas']['Capture'] | null;
      /** Format: date-time */
      readonly createdAt: string;
      readonly deliveredAt: string | null;
      readonly domainId: string;
      /** @description Only on GET /v1/emails/{id}. */
      readonly events?: readonly components['schemas']['EmailEvent'][];
      readonly from: string;
      readonly fromAddress: string;
      readonly headers: {
        readonly [key: string]: unknown;
      } | null;
      readonly id: string;
      readonly messageId: string;
      readonly metadata: {
        readonly [key: string]: unknown;
      } | null;
      /** @enum {string} */
      readonly mode: 'live' | 'test';
      /** @description Only on GET /v1/emails/{id}: which bodies the message has (what /preview?part= can show). */
      readonly parts?: {
        readonly html: boolean;
        readonly text: boolean;
      };
      readonly recipients: readonly components['schemas']['Recipient'][];
      readonly replyTo: readonly string[] | null;
      readonly scheduledAt: string | null;
      readonly sentAt: string | null;
      readonly smtpResponse: string | null;
      /** @enum {string} */
      readonly status:
        | 'queued'
        | 'processing'
        | 'sent'
        | 'delivered'
        | 'deferred'
        | 'bounced'
        | 'complained'
        | 'failed'
        | 'cancelled';
      readonly subject: string;
      readonly tags: {
        readonly [key: string]: unknown;
      } | null;
    };
    readonly EmailDetail: {
      /** @description Only on GET /v1/emails/{id}: the attachments sent through the API, in order (not their content). Empty for a message submitted over SMTP, whose attachments are inside its raw message. */
      readonly attachments?: readonly {
        readonly contentType: string;
        readonly filename: string;
        /** @description Referenced from the HTML by Content-ID */
        readonly inline: boolean;
        readonly sizeBytes: number;
      }[];
      readonly attempts: number;
      /** @description Only on GET /v1/emails/{id}: null for live mail, the capture of test mail. */
      readonly capture?: components['schemas']['Capture'] | null;
      /** Format: date-time */
      readonly createdAt: string;
      readonly deliveredAt: string | null;
      /** @description Where the message is on its way, and why it is still queued. */
      readonly delivery: components['schemas']['Delivery'];
      readonly domainId: string;
      /** @description Only on GET /v1/emails/{id}. */
      readonly events?: readonly components['schemas']['EmailEvent'][];
      readonly from: string;
      readonly fromAddress: string;
      readonly headers: {
        readonly [key: string]: unknown;
      } | null;
      readonly id: string;
      readonly messageId: string;
      readonly metadata: {
        readonly [key: string]: unknown;
      } | null;
      /** @enum {string} */
      readonly mode: 'live' | 'test';
      /** @description Only on GET /v1/emails/{id}: which bodies the message has (what /preview?part= can show). */
      readonly parts?: {
        readonly html: boolean;
        readonly text: boolean;
      };
      readonly recipients: readonly components['schemas']['Recipient'][];
      readonly replyTo: readonly string[] | null;
      readonly scheduledAt: string | null;
      readonly sentAt: string | null;
      readonly smtpResponse: string | null;
      /** @enum {string} */
      readonly status:
        | 'queued'
        | 'processing'
        | 'sent'
        | 'delivered'
        | 'deferred'
        | 'bounced'
        | 'complained'
        | 'failed'
        | 'cancelled';
      readonly subject: string;
      readonly tags: {
        readonly [key: string]: unknown;
      } | null;
    };
    readonly EmailEvent: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly message: string | null;
      /** @description NODE_NAME of the appliance node that wrote the entry: the worker's hand-off (`processing`, `sent`), the MTA's delivery reports (`delivered`, `deferred`, `bounced`, `failed`), the sweep's hand-back; null for entries no node is recorded for (acceptance, feedback by mail, entries from before issue 23). */
      readonly node: string | null;
      readonly recipient: string | null;
      /** @description Delivery attempts: the TLS version and cipher of the SMTP session with the MX (e.g. "TLSv1.3 TLS_AES_256_GCM_SHA384"), or "plaintext" when it offered no STARTTLS; null for other entries or when no session was opened. */
      readonly tls: string | null;
      readonly type: string;
    };
    readonly EmailPage: {
      readonly data: readonly components['schemas']['Email'][];
      readonly hasMore: boolean;
      readonly nextCursor: string | null;
      /** @description Only with `total=1`: how many messages match the filters, counted up to 10,000. */
      readonly total?: {
        /** @description True when more than 10,000 match: `count` is then 10,000. */
        readonly capped: boolean;
        /** @description Messages matching the filters, whatever the cursor; at most 10,000. */
        readonly count: number;
      };
    };
    readonly Error: {
      readonly error: {
        readonly code: string;
        readonly details?: {
          readonly [key: string]: unknown;
        };
        readonly message: string;
      };
    };
    readonly Health: {
      /** @constant */
      readonly status: 'ok';
    };
    readonly HealthSignals: {
      /** Format: date-time */
      readonly evaluatedAt: string;
      readonly firing: readonly string[];
      readonly signals: readonly {
        readonly basis: {
          readonly [key: string]: number | string | null;
        };
        readonly fires: boolean;
        /** @enum {string} */
        readonly name:
          'bounce_rate' | 'complaint_rate' | 'failure_rate' | 'volume_spike' | 'recipient_repetition';
        readonly threshold: number;
        /** @enum {string} */
        readonly unit: 'percent' | 'ratio' | 'messages';
        readonly value: number;
        /** @enum {string} */
        readonly window: '24h' | '1h';
      }[];
    };
    readonly InboundAttachment: {
      readonly contentId: string | null;
      readonly contentType: string;
      readonly disposition: string | null;
      readonly filename: string | null;
      readonly id: string;
      readonly size: number;
    };
    readonly InboundMessage: {
      readonly attachmentCount: number;
      readonly attachments: readonly components['schemas']['InboundAttachment'][];
      readonly attachmentsDropped: number;
      readonly authenticated: boolean;
      readonly cc: readonly string[];
      readonly date: string | null;
      readonly dkimResult: string | null;
      readonly dmarcResult: string | null;
      readonly domainId: string | null;
      readonly from: string | null;
      readonly fromAddress: string | null;
      readonly headers: readonly {
        readonly name: string;
        readonly value: string;
      }[];
      readonly helo: string | null;
      /** @description Exactly as received, unsanitised. */
      readonly html: string | null;
      readonly id: string;
      readonly mailFrom: string;
      readonly messageId: string | null;
      readonly rcptTo: readonly string[];
      readonly read: boolean;
      /** Format: date-time */
      readonly receivedAt: string;
      readonly remoteIp: string | null;
      readonly size: number;
      readonly spfResult: string | null;
      readonly subject: string | null;
      readonly text: string | null;
      readonly to: readonly string[];
      /** @description The message could not be parsed: only its envelope, size and raw bytes are known. */
      readonly unparsed: boolean;
      /** @description Why it could not be parsed; null when it was. */
      readonly unparsedReason: string | null;
    };
    readonly InboundPage: {
      readonly data: readonly components['schemas']['InboundSummary'][];
      readonly hasMore: boolean;
      readonly nextCursor: string | null;
    };
    readonly InboundSummary: {
      readonly attachmentCount: number;
      readonly authenticated: boolean;
      readonly cc: readonly string[];
      readonly dkimResult: string | null;
      readonly dmarcResult: string | null;
      readonly domainId: string | null;
      readonly from: string | null;
      readonly fromAddress: string | null;
      readonly id: string;
      readonly read: boolean;
      /** Format: date-time */
      readonly receivedAt: string;
      readonly size: number;
      readonly spfResult: string | null;
      readonly subject: string | null;
      readonly to: readonly string[];
      /** @description The message could not be parsed: only its envelope, size and raw bytes are known. */
      readonly unparsed: boolean;
      /** @description Why it could not be parsed; null when it was. */
      readonly unparsedReason: string | null;
    };
    readonly Invitation: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly createdBy: string;
      readonly email: string;
      /** Format: date-time */
      readonly expiresAt: string;
      readonly id: string;
    };
    readonly InvitationList: {
      readonly data: readonly components['schemas']['Invitation'][];
    };
    readonly Me: {
      readonly email: string;
      readonly id: string;
      readonly name: string;
      /** @enum {string} */
      readonly role: 'user' | 'operator';
      /** @enum {string} */
      readonly status: 'ACTIVE' | 'SUSPENDED';
    };
    readonly OpenApiDocument: {
      readonly info: {
        readonly [key: string]: unknown;
      };
      readonly openapi: string;
      readonly paths: {
        readonly [key: string]: unknown;
      };
    } & {
      readonly [key: string]: unknown;
    };
    readonly OperatorAccount: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly email: string;
      readonly emailsPerDay: number | null;
      readonly emailsPerHour: number | null;
      readonly id: string;
      readonly name: string;
      readonly ownEmailsPerDay: number | null;
      readonly ownEmailsPerHour: number | null;
      /** @enum {string} */
      readonly role: 'user' | 'operator';
      /** @enum {string} */
      readonly status: 'ACTIVE' | 'SUSPENDED';
      /** @description Only on suspend: queued messages stopped. */
      readonly stoppedEmails?: number;
      readonly suspendedAt: string | null;
      readonly suspensionReason: string | null;
    };
    readonly OperatorAccountPage: {
      readonly data: readonly components['schemas']['OperatorAccountSummary'][];
      readonly hasMore: boolean;
      readonly nextCursor: string | null;
    };
    readonly OperatorAccountSummary: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly email: string;
      readonly emailsPerDay: number | null;
      readonly emailsPerHour: number | null;
      readonly id: string;
      readonly limits: {
        readonly emailsPerDay: number;
        readonly emailsPerHour: number;
      };
      readonly name: string;
      readonly ownEmailsPerDay: number | null;
      readonly ownEmailsPerHour: number | null;
      /** @enum {string} */
      readonly role: 'user' | 'operator';
      /** @enum {string} */
      readonly status: 'ACTIVE' | 'SUSPENDED';
      /** @description Only on suspend: queued messages stopped. */
      readonly stoppedEmails?: number;
      readonly suspendedAt: string | null;
      readonly suspensionReason: string | null;
      readonly volume: {
        readonly last24h: number;
        readonly last30d: number;
      };
    };
    readonly Ready: {
      readonly checks: {
        readonly database: components['schemas']['ReadyCheck'];
        readonly disk: components['schemas']['ReadyCheck'];
        readonly mail: components['schemas']['ReadyCheck'];
        readonly queue: components['schemas']['ReadyCheck'];
        readonly queues: components['schemas']['ReadyCheck'];
        readonly redis: components['schemas']['ReadyCheck'];
      };
      readonly queues: {
        readonly [key: string]: {
          readonly oldestRunnableSeconds: number;
          readonly running: number;
          readonly starved: boolean;
        };
      };
      /** @enum {string} */
      readonly status: 'ok' | 'degraded' | 'unavailable';
    };
    readonly ReadyCheck: {
      readonly error?: string;
      readonly ok: boolean;
    };
    readonly Recipient: {
      readonly email: string;
      readonly smtpResponse: string | null;
      /** @enum {string} */
      readonly status:
        | 'queued'
        | 'processing'
        | 'sent'
        | 'delivered'
        | 'deferred'
        | 'bounced'
        | 'complained'
        | 'failed'
        | 'cancelled';
      /** @enum {string} */
      readonly type: 'to' | 'cc' | 'bcc';
    };
    readonly ResendApiKey: {
      readonly created_at: string;
      readonly id: string;
      readonly last_used_at: string | null;
      readonly name: string;
    };
    readonly ResendApiKeyList: {
      readonly data: readonly components['schemas']['ResendApiKey'][];
      readonly has_more: boolean;
      /** @constant */
      readonly object: 'list';
    };
    readonly ResendBatch: {
      readonly data: readonly components['schemas']['ResendId'][];
    };
    readonly ResendCreatedApiKey: {
      readonly id: string;
      readonly token: string;
    };
    readonly ResendCreatedWebhook: {
      readonly id: string;
      /** @constant */
      readonly object: 'webhook';
      readonly signing_secret: string;
    };
    readonly ResendDeleted: {
      /** @constant */
      readonly deleted: true;
      readonly id: string;
      readonly object: string;
    };
    readonly ResendDnsRecord: {
      readonly name: string;
      readonly priority?: number;
      readonly record: string;
      readonly status: string;
      readonly ttl: string;
      readonly type: string;
      readonly value: string;
    };
    readonly ResendDomain: {
      readonly capabilities: {
        readonly receiving: string;
        readonly sending: string;
      };
      readonly click_tracking: boolean;
      readonly created_at: string;
      readonly id: string;
      readonly name: string;
      /** @constant */
      readonly object: 'domain';
      readonly open_tracking: boolean;
      readonly records: readonly components['schemas']['ResendDnsRecord'][];
      readonly region: string;
      /** @enum {string} */
      readonly status: 'pending' | 'verified' | 'failed';
    };
    readonly ResendDomainList: {
      readonly data: readonly components['schemas']['ResendDomainSummary'][];
      readonly has_more: boolean;
      /** @constant */
      readonly object: 'list';
    };
    readonly ResendDomainSummary: {
      readonly capabilities: {
        readonly receiving: string;
        readonly sending: string;
      };
      readonly click_tracking: boolean;
      readonly created_at: string;
      readonly id: string;
      readonly name: string;
      /** @constant */
      readonly object: 'domain';
      readonly open_tracking: boolean;
      readonly region: string;
      /** @enum {string} */
      readonly status: 'pending' | 'verified' | 'failed';
    };
    readonly ResendEmail: {
      readonly bcc: readonly string[] | null;
      readonly cc: readonly string[] | null;
      readonly created_at: string;
      readonly from: string;
      readonly html: string | null;
      readonly id: string;
      readonly last_event: string;
      readonly message_id: string;
      /** @constant */
      readonly object: 'email';
      readonly reply_to: readonly string[] | null;
      readonly scheduled_at: string | null;
      readonly subject: string;
      readonly tags: readonly {
        readonly name: string;
        readonly value: string;
      }[];
      readonly text: string | null;
      readonly to: readonly string[];
    };
    readonly ResendEmailList: {
      readonly data: readonly components['schemas']['ResendListEmail'][];
      readonly has_more: boolean;
      /** @constant */
      readonly object: 'list';
    };
    readonly ResendError: {
      readonly message: string;
      readonly name: string;
      readonly statusCode: number;
    };
    readonly ResendId: {
      readonly id: string;
    };
    readonly ResendListEmail: {
      readonly bcc: readonly string[] | null;
      readonly cc: readonly string[] | null;
      readonly created_at: string;
      readonly from: string;
      readonly id: string;
      readonly last_event: string;
      readonly message_id: string;
      readonly reply_to: readonly string[] | null;
      readonly scheduled_at: string | null;
      readonly subject: string;
      readonly to: readonly string[];
    };
    readonly ResendObjectId: {
      readonly id: string;
      readonly object: string;
    };
    readonly ResendSuppression: {
      readonly created_at: string;
      readonly email: string;
      readonly id: string;
      /** @constant */
      readonly object: 'suppression';
      /** @enum {string} */
      readonly origin: 'bounce' | 'complaint' | 'manual';
      readonly source_id: string | null;
    };
    readonly ResendSuppressionEntry: {
      readonly created_at: string;
      readonly email: string;
      readonly id: string;
      /** @enum {string} */
      readonly origin: 'bounce' | 'complaint' | 'manual';
      readonly source_id: string | null;
    };
    readonly ResendSuppressionList: {
      readonly data: readonly components['schemas']['ResendSuppressionEntry'][];
      readonly has_more: boolean;
      /** @constant */
      readonly object: 'list';
    };
    readonly ResendWebhook: {
      readonly created_at: string;
      readonly endpoint: string;
      readonly events: readonly string[];
      readonly id: string;
      /** @constant */
      readonly object: 'webhook';
      /** @enum {string} */
      readonly status: 'enabled' | 'disabled';
    };
    readonly ResendWebhookList: {
      readonly data: readonly components['schemas']['ResendWebhook'][];
      readonly has_more: boolean;
      /** @constant */
      readonly object: 'list';
    };
    readonly RotatedWebhook: {
      readonly consecutiveFailures: number;
      /** Format: date-time */
      readonly createdAt: string;
      readonly disabledAt: string | null;
      readonly disabledReason: string | null;
      readonly enabled: boolean;
      readonly events: readonly (
        | 'email.sent'
        | 'email.delivered'
        | 'email.bounced'
        | 'email.failed'
        | 'email.complained'
        | 'email.received'
        | 'email.unsubscribed'
      )[];
      readonly id: string;
      readonly lastFailureAt: string | null;
      readonly lastSuccessAt: string | null;
      /** @enum {string} */
      readonly payloadFormat: 'mailroom' | 'resend';
      /** @description The new signing secret; shown once. */
      readonly secret: string;
      /** Format: date-time */
      readonly updatedAt: string;
      readonly url: string;
    };
    readonly SendAccepted: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly id: string;
      /** @constant */
      readonly status: 'queued';
    };
    readonly Session: {
      /** Format: date-time */
      readonly expiresAt: string;
      readonly token: string;
      readonly user: {
        readonly email: string;
        readonly id: string;
        readonly name: string;
      };
    };
    readonly Settings: {
      readonly account: {
        /** Format: date-time */
        readonly createdAt: string;
        readonly email: string;
        readonly id: string;
        readonly name: string;
        /** @enum {string} */
        readonly status: 'ACTIVE' | 'SUSPENDED';
      };
      readonly limits: {
        readonly emailsPerDay: {
          readonly default: number;
          readonly effective: number;
          readonly override: number | null;
          readonly own: number | null;
        };
        readonly emailsPerHour: {
          readonly default: number;
          readonly effective: number;
          readonly override: number | null;
          readonly own: number | null;
        };
      };
      /** @description Whether this server's MAIL_HOSTNAME is usable for mail on the Internet. */
      readonly mailHostname: {
        /** @description MAIL_HOSTNAME: this server's name in its SMTP greeting and the DNS records. */
        readonly name: string;
        /** @description Only when `usable` is false: what that breaks and how to set it. */
        readonly reason?: string;
        /** @description False when it is no public fully qualified name (a single label, an IP, .local, .internal, .test, …). */
        readonly usable: boolean;
      };
      /** @description Where this server receives mail (docs/inbound.md, Try it before publishing the MX). */
      readonly mx: {
        /** @description MX_HOST: the name the MX records of receiving domains point to. */
        readonly host: string;
        /** @description SMTP_PORT: the port this server’s MX listens on (2525 by default, 25 in the image), for trying inbound mail against it directly. */
        readonly port: number;
      };
      readonly usage: {
        readonly day: {
          readonly limit: number;
          readonly used: number;
        };
        readonly hour: {
          readonly limit: number;
          readonly used: number;
        };
      };
    };
    readonly StatsOverview: {
      readonly daily: readonly {
        readonly count: number;
        /** Format: date */
        readonly day: string;
        /** @enum {string} */
        readonly status:
          | 'queued'
          | 'processing'
          | 'sent'
          | 'delivered'
          | 'deferred'
          | 'bounced'
          | 'complained'
          | 'failed'
          | 'cancelled';
      }[];
      readonly rates: {
        readonly bounce: number;
        readonly complaint: number;
        readonly delivery: number;
        readonly terminalMessages: number;
      };
      readonly totals: {
        readonly bounced: number;
        readonly cancelled: number;
        readonly complained: number;
        readonly deferred: number;
        readonly delivered: number;
        readonly failed: number;
        readonly processing: number;
        readonly queued: number;
        readonly sent: number;
        readonly total: number;
      };
      readonly usage: {
        readonly day: {
          readonly limit: number;
          readonly used: number;
        };
        readonly hour: {
          readonly limit: number;
          readonly used: number;
        };
      };
      readonly window: {
        readonly days: number;
        /** Format: date */
        readonly from: string;
        /** Format: date */
        readonly to: string;
      };
    };
    readonly Suppression: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly email: string;
      readonly id: string;
      readonly reason: string | null;
      readonly sourceEmailId: string | null;
      /** @enum {string} */
      readonly type: 'hard_bounce' | 'soft_bounce' | 'complaint' | 'manual' | 'unsubscribe';
    };
    readonly SuppressionPage: {
      readonly data: readonly components['schemas']['Suppression'][];
      readonly hasMore: boolean;
      readonly nextCursor: string | null;
    };
    readonly TestEmailSent: {
      /** Format: date-time */
      readonly createdAt: string;
      /** @description `test@<domain>`, or the first listed address when `restrictSenders` is on. */
      readonly from: string;
      /** @description The email: `GET /v1/emails/{id}` follows it to `delivered` in the capture. */
      readonly id: string;
      /** @constant */
      readonly mode: 'test';
      /** @constant */
      readonly status: 'queued';
      /** @constant */
      readonly to: 'delivered@simulator.mailroom.invalid';
    };
    readonly Verification: {
      readonly dkim: components['schemas']['CheckResult'];
      readonly dmarc: components['schemas']['CheckResult'];
      readonly domain: string;
      readonly mx?: components['schemas']['CheckResult'];
      readonly nextSteps?: readonly string[];
      readonly required: {
        readonly dkim: boolean;
        readonly dmarc: boolean;
        readonly mx?: boolean;
        readonly returnPath: boolean;
        readonly spf: boolean;
      };
      readonly returnPath: components['schemas']['CheckResult'];
      readonly spf: components['schemas']['CheckResult'];
      /** @enum {string} */
      readonly status: 'PENDING' | 'VERIFIED' | 'FAILED';
      readonly verified: boolean;
    };
    readonly Webhook: {
      readonly consecutiveFailures: number;
      /** Format: date-time */
      readonly createdAt: string;
      readonly disabledAt: string | null;
      readonly disabledReason: string | null;
      readonly enabled: boolean;
      readonly events: readonly (
        | 'email.sent'
        | 'email.delivered'
        | 'email.bounced'
        | 'email.failed'
        | 'email.complained'
        | 'email.received'
        | 'email.unsubscribed'
      )[];
      readonly id: string;
      readonly lastFailureAt: string | null;
      readonly lastSuccessAt: string | null;
      /** @enum {string} */
      readonly payloadFormat: 'mailroom' | 'resend';
      /** Format: date-time */
      readonly updatedAt: string;
      readonly url: string;
    };
    readonly WebhookAttempt: {
      readonly attempt: number;
      /** Format: date-time */
      readonly createdAt: string;
      readonly deliveryId: string;
      readonly durationMs: number;
      readonly error: string | null;
      readonly event: string;
      readonly httpStatus: number | null;
      readonly id: string;
      /**
       * @description `test` for an event of mail sent with a test-mode key (captured, never delivered) and for `webhook.test`; `live` otherwise
       * @enum {string}
       */
      readonly mode: 'live' | 'test';
      /** @description On a redelivery (POST /v1/webhooks/{id}/attempts/{attemptId}/redeliver), the deliveryId it repeats; else null */
      readonly redeliveryOf: string | null;
      /** @description What this attempt sent, or tried to send (a refused address or a failed lookup sends nothing; see error); null for attempts made before Mailroom kept it */
      readonly request: {
        /** @description The raw body as sent (the bytes the signatures cover) */
        readonly body: string;
        /** @description The request headers as sent: Content-Type, User-Agent, X-Mail-Event, X-Mail-Delivery-Id, X-Mail-Signature and the Standard Webhooks webhook-*\/svix-* trio. The signatures are not secret; the signing secret is never included */
        readonly headers: {
          readonly [key: string]: string;
        };
      } | null;
      /** @description The first 512 bytes of the receiver's response body (UTF-8); null when it did not answer */
      readonly responseExcerpt: string | null;
      readonly succeeded: boolean;
    };
    readonly WebhookDetail: {
      readonly attempts: readonly components['schemas']['WebhookAttempt'][];
      readonly consecutiveFailures: number;
      /** Format: date-time */
      readonly createdAt: string;
      readonly disabledAt: string | null;
      readonly disabledReason: string | null;
      readonly enabled: boolean;
      readonly events: readonly (
        | 'email.sent'
        | 'email.delivered'
        | 'email.bounced'
        | 'email.failed'
        | 'email.complained'
        | 'email.received'
        | 'email.unsubscribed'
      )[];
      readonly id: string;
      readonly lastFailureAt: string | null;
      readonly lastSuccessAt: string | null;
      /** @enum {string} */
      readonly payloadFormat: 'mailroom' | 'resend';
      /** Format: date-time */
      readonly updatedAt: string;
      readonly url: string;
    };
    readonly WebhookList: {
      readonly data: readonly components['schemas']['Webhook'][];
    };
    readonly WebhookRedeliveryQueued: {
      readonly attemptId: string;
      /** Format: date-time */
      readonly createdAt: string;
      /** @description The new delivery's X-Mail-Delivery-Id */
      readonly deliveryId: string;
      readonly event: string;
      /** @description The deliveryId of the attempt redelivered */
      readonly redeliveryOf: string;
      readonly webhookId: string;
    };
    readonly WebhookTestQueued: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly deliveryId: string;
      /** @constant */
      readonly event: 'webhook.test';
      readonly webhookId: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  readonly resendListApiKeys: {
    readonly parameters: {
      readonly query?: {
        readonly after?: string;
        readonly limit?: number;
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description API keys */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendApiKeyList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendCreateApiKey: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly domain_id?: string;
          readonly name: string;
          /** @enum {string} */
          readonly permission?: 'full_access' | 'sending_access';
        };
      };
    };
    readonly responses: {
      /** @description Created */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendCreatedApiKey'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'restricted_api_key' | 'invalid_access';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendRemoveApiKey: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Revoked */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDeleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'restricted_api_key' | 'invalid_access';
          };
        };
      };
      /** @description API_KEY_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendListDomains: {
    readonly parameters: {
      readonly query?: {
        readonly after?: string;
        readonly limit?: number;
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Domains */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDomainList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendCreateDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly capabilities?: {
            /** @enum {string} */
            readonly receiving?: 'enabled' | 'disabled';
            /** @enum {string} */
            readonly sending?: 'enabled' | 'disabled';
          };
          readonly click_tracking?: boolean;
          readonly custom_return_path?: string;
          readonly name: string;
          readonly open_tracking?: boolean;
          readonly region?: string;
          /** @enum {string} */
          readonly tls?: 'enforced' | 'opportunistic';
          readonly tracking_subdomain?: string;
        };
      };
    };
    readonly responses: {
      /** @description Added (status pending) */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDomain'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_ALREADY_EXISTS */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description INVALID_DOMAIN, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
      /** @description NOT_IMPLEMENTED */
      readonly 501: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_implemented';
          };
        };
      };
    };
  };
  readonly resendGetDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The domain */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDomain'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendRemoveDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Removed */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDeleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description DOMAIN_HAS_HISTORY */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendUpdateDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly capabilities?: {
            /** @enum {string} */
            readonly receiving?: 'enabled' | 'disabled';
            /** @enum {string} */
            readonly sending?: 'enabled' | 'disabled';
          };
          readonly click_tracking?: boolean;
          readonly open_tracking?: boolean;
          /** @enum {string} */
          readonly tls?: 'enforced' | 'opportunistic';
          readonly tracking_subdomain?: string;
        };
      };
    };
    readonly responses: {
      /** @description Updated */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendObjectId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
      /** @description NOT_IMPLEMENTED */
      readonly 501: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_implemented';
          };
        };
      };
    };
  };
  readonly resendVerifyDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Checked; GET the domain for its status */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendObjectId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description DOMAIN_VERIFIED_ELSEWHERE */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendListEmails: {
    readonly parameters: {
      readonly query?: {
        readonly after?: string;
        readonly limit?: number;
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of emails */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendEmailList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendSendEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: {
        /** @description As on POST /v1/emails */
        readonly 'Idempotency-Key'?: string;
      };
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly attachments?: readonly {
            readonly content: string;
            readonly content_id?: string;
            readonly content_type?: string;
            readonly filename: string;
          }[];
          readonly bcc?: string | readonly string[];
          readonly cc?: string | readonly string[];
          readonly from: string;
          readonly headers?: {
            readonly [key: string]: string;
          };
          readonly html?: string;
          readonly reply_to?: string | readonly string[];
          readonly scheduled_at?: string;
          readonly subject: string;
          readonly tags?: readonly {
            readonly name: string;
            readonly value: string;
          }[];
          readonly text?: string;
          readonly to: string | readonly string[];
        } & {
          readonly [key: string]: unknown;
        };
      };
    };
    readonly responses: {
      /** @description Queued: the email id */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, DOMAIN_NOT_VERIFIED, SUPPRESSED_RECIPIENT, API_KEY_DOMAIN_RESTRICTED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'validation_error' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description IDEMPOTENCY_KEY_REUSED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_idempotent_request';
          };
        };
      };
      /** @description EMAIL_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description INVALID_FROM_ADDRESS, INVALID_RECIPIENT, TOO_MANY_RECIPIENTS, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_from_address' | 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description SENDING_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded' | 'daily_quota_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
      /** @description NOT_IMPLEMENTED */
      readonly 501: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_implemented';
          };
        };
      };
      /** @description EMAIL_QUEUE_FAILED */
      readonly 503: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'application_error';
          };
        };
      };
    };
  };
  readonly resendGetEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The email */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendEmail'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendUpdateEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly scheduled_at: string;
        };
      };
    };
    readonly responses: {
      /** @description Rescheduled */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendObjectId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description EMAIL_NOT_SCHEDULED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendCancelEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Cancelled */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendObjectId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description EMAIL_NOT_CANCELLABLE */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendSendBatch: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: {
        /** @description As on POST /v1/emails/batch */
        readonly 'Idempotency-Key'?: string;
        /** @description `strict` (the default): one invalid email refuses the batch */
        readonly 'x-batch-validation'?: string;
      };
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': readonly ({
          readonly attachments?: readonly {
            readonly content: string;
            readonly content_id?: string;
            readonly content_type?: string;
            readonly filename: string;
          }[];
          readonly bcc?: string | readonly string[];
          readonly cc?: string | readonly string[];
          readonly from: string;
          readonly headers?: {
            readonly [key: string]: string;
          };
          readonly html?: string;
          readonly reply_to?: string | readonly string[];
          readonly scheduled_at?: string;
          readonly subject: string;
          readonly tags?: readonly {
            readonly name: string;
            readonly value: string;
          }[];
          readonly text?: string;
          readonly to: string | readonly string[];
        } & {
          readonly [key: string]: unknown;
        })[];
      };
    };
    readonly responses: {
      /** @description Queued, in the order given */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendBatch'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, DOMAIN_NOT_VERIFIED, SUPPRESSED_RECIPIENT, API_KEY_DOMAIN_RESTRICTED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'validation_error' | 'restricted_api_key';
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description IDEMPOTENCY_KEY_REUSED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_idempotent_request';
          };
        };
      };
      /** @description EMAIL_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description INVALID_FROM_ADDRESS, INVALID_RECIPIENT, TOO_MANY_RECIPIENTS, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_from_address' | 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description SENDING_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded' | 'daily_quota_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
      /** @description NOT_IMPLEMENTED */
      readonly 501: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_implemented';
          };
        };
      };
      /** @description EMAIL_QUEUE_FAILED */
      readonly 503: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'application_error';
          };
        };
      };
    };
  };
  readonly health: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Alive */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Health'];
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly setAccountLimits: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly emailsPerDay?: number | null;
          readonly emailsPerHour?: number | null;
        };
      };
    };
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccount'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description ACCOUNT_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly reinstateAccount: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccount'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description ACCOUNT_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly suspendAccount: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly reason: string;
        };
      };
    };
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccount'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description ACCOUNT_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly submitBounceReport: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** @description The raw report, any content type */
    readonly requestBody: {
      readonly content: {
        readonly 'message/rfc822': string;
      };
    };
    readonly responses: {
      /** @description Queued for processing */
      readonly 202: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['BounceAccepted'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly internalListInvitations: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The pending invitations */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['InvitationList'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly internalCreateInvitation: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly email: string;
          readonly expiresInDays?: number;
        };
      };
    };
    readonly responses: {
      /** @description The invitation, with its token */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['CreatedInvitation'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description EMAIL_ALREADY_REGISTERED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_ALREADY_REGISTERED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly internalRevokeInvitation: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Revoked */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Deleted'];
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description INVITATION_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INVITATION_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly metrics: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Metrics */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'text/plain': string;
        };
      };
      /** @description UNAUTHORIZED */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly openapi: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The OpenAPI 3.1 document */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OpenApiDocument'];
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly publicLogo: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Account id (`usr_…`) */
        readonly ownerId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The image */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'image/*': string;
        };
      };
      /** @description Not modified (ETag matched) */
      readonly 304: {
        headers: {
          readonly [name: string]: unknown;
        };
        content?: never;
      };
      /** @description LOGO_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'LOGO_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly unsubscribePage: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description token */
        readonly token: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The confirmation page */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'text/html': string;
        };
      };
      /** @description UNSUBSCRIBE_LINK_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUBSCRIBE_LINK_NOT_FOUND';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly unsubscribeOneClick: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description token */
        readonly token: string;
      };
      readonly cookie?: never;
    };
    /** @description `List-Unsubscribe=One-Click` (or the same field as multipart/form-data) */
    readonly requestBody: {
      readonly content: {
        readonly 'application/x-www-form-urlencoded': string;
      };
    };
    readonly responses: {
      /** @description Unsubscribed (also when it already was) */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'text/html': string;
        };
      };
      /** @description UNSUBSCRIBE_LINK_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUBSCRIBE_LINK_NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly ready: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Ready (`ok`) or `degraded`: the MTA is down or a queue is starved */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Ready'];
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
      /** @description `unavailable`: the database or queue store failed, or disk space is under the floor */
      readonly 503: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Ready'];
        };
      };
    };
  };
  readonly resendListSuppressions: {
    readonly parameters: {
      readonly query?: {
        readonly after?: string;
        readonly limit?: number;
        readonly origin?: 'bounce' | 'complaint' | 'manual';
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of suppressions */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendSuppressionList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendAddSuppression: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly email: string;
        };
      };
    };
    readonly responses: {
      /** @description Suppressed */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendObjectId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description SUPPRESSION_ALREADY_EXISTS */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendGetSuppression: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The suppression id (`sup_…`) or the suppressed address (URL-encoded) */
        readonly idOrEmail: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The suppression */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendSuppression'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description SUPPRESSION_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendRemoveSuppression: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The suppression id (`sup_…`) or the suppressed address (URL-encoded) */
        readonly idOrEmail: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Removed */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDeleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description SUPPRESSION_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly listApiKeys: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Keys */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ApiKeyList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly createApiKey: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly domainId?: string;
          /**
           * @default live
           * @enum {string}
           */
          readonly mode?: 'live' | 'test';
          readonly name: string;
          /**
           * @default full_access
           * @enum {string}
           */
          readonly permission?: 'full_access' | 'sending_access';
        };
      };
    };
    readonly responses: {
      /** @description Created */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['CreatedApiKey'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly revokeApiKey: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description API key id (`key_…`) */
        readonly keyId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The revoked key */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description API_KEY_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'API_KEY_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly changePassword: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly currentPassword: string;
          readonly newPassword: string;
        };
      };
    };
    readonly responses: {
      /** @description Changed */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Session'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY, INVALID_CREDENTIALS */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY' | 'INVALID_CREDENTIALS';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly login: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly email: string;
          readonly password: string;
        };
      };
    };
    readonly responses: {
      /** @description Logged in */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Session'];
        };
      };
      /** @description INVALID_CREDENTIALS */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INVALID_CREDENTIALS';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly logout: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Signed out everywhere */
      readonly 204: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': string;
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly me: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Me'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly authOptions: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The options */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['AuthOptions'];
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly register: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly email: string;
          readonly invitation?: string;
          readonly name: string;
          readonly password: string;
        };
      };
    };
    readonly responses: {
      /** @description Registered */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Session'];
        };
      };
      /** @description INVITATION_REQUIRED, INVITATION_INVALID, SIGNUP_CLOSED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INVITATION_REQUIRED' | 'INVITATION_INVALID' | 'SIGNUP_CLOSED';
            };
          };
        };
      };
      /** @description EMAIL_ALREADY_REGISTERED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_ALREADY_REGISTERED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getBranding: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Branding */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Branding'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly setFooter: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly html?: string | null;
          readonly text?: string | null;
        };
      };
    };
    readonly responses: {
      /** @description Branding */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Branding'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly uploadLogo: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** @description The image bytes (`curl --data-binary @logo.png`) */
    readonly requestBody: {
      readonly content: {
        readonly 'image/*': string;
      };
    };
    readonly responses: {
      /** @description Branding */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Branding'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description LOGO_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'LOGO_TOO_LARGE';
            };
          };
        };
      };
      /** @description INVALID_LOGO, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INVALID_LOGO' | 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly deleteLogo: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Branding */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Branding'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description LOGO_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'LOGO_NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly listDomains: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Domains */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['DomainList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly createDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly domain: string;
        };
      };
    };
    readonly responses: {
      /** @description Added (status PENDING) */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Domain'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_ALREADY_EXISTS */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_ALREADY_EXISTS';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description INVALID_DOMAIN, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INVALID_DOMAIN' | 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Domain id (`dom_…`) */
        readonly domainId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The domain */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Domain'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly deleteDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Domain id (`dom_…`) */
        readonly domainId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Deleted */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['DeletedDomain'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description DOMAIN_HAS_HISTORY */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_HAS_HISTORY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly updateDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Domain id (`dom_…`) */
        readonly domainId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly addresses?: readonly string[];
          readonly inboundLabel?: string;
          readonly receiveEnabled?: boolean;
          readonly restrictSenders?: boolean;
          readonly unsubscribeLink?: boolean;
        };
      };
    };
    readonly responses: {
      /** @description Updated domain */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Domain'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getDomainStatusHistory: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Domain id (`dom_…`) */
        readonly domainId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Status changes */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['DomainStatusHistory'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly sendDomainTestEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Domain id (`dom_…`) */
        readonly domainId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Queued (test mode) */
      readonly 202: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['TestEmailSent'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, SUPPRESSED_RECIPIENT, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?:
                'ACCOUNT_SUSPENDED' | 'SUPPRESSED_RECIPIENT' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description SENDING_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'SENDING_LIMIT_EXCEEDED' | 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
      /** @description EMAIL_QUEUE_FAILED */
      readonly 503: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_QUEUE_FAILED';
            };
          };
        };
      };
    };
  };
  readonly verifyDomain: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Domain id (`dom_…`) */
        readonly domainId: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The verification result (also when not verified) */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Verification'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description DOMAIN_VERIFIED_ELSEWHERE */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_VERIFIED_ELSEWHERE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly listEmails: {
    readonly parameters: {
      readonly query?: {
        readonly cursor?: string;
        readonly domainId?: string;
        readonly from?: string;
        readonly limit?: number;
        readonly q?: string;
        readonly recipient?: string;
        readonly status?:
          | 'queued'
          | 'processing'
          | 'sent'
          | 'delivered'
          | 'deferred'
          | 'bounced'
          | 'complained'
          | 'failed'
          | 'cancelled';
        readonly tag?: string;
        readonly to?: string;
        readonly total?: '0' | '1';
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of messages (no events) */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['EmailPage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly sendEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: {
        /** @description 1–255 visible ASCII characters: the same key and body within 24 h answers the original 202 and creates nothing */
        readonly 'Idempotency-Key'?: string;
      };
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly attachments?: readonly {
            readonly cid?: string;
            readonly content: string | readonly number[];
            readonly contentId?: string;
            readonly contentType?: string;
            readonly filename: string;
          }[];
          readonly bcc?: string | readonly string[];
          readonly cc?: string | readonly string[];
          readonly from: string;
          readonly headers?: {
            readonly [key: string]: string;
          };
          readonly html?: string;
          readonly metadata?: {
            readonly [key: string]: unknown;
          };
          readonly replyTo?: string | readonly string[];
          /** Format: date-time */
          readonly scheduledAt?: string;
          readonly subject: string;
          readonly tags?:
            | {
                readonly [key: string]: string;
              }
            | readonly {
                readonly name: string;
                readonly value: string;
              }[];
          readonly text?: string;
          readonly to: string | readonly string[];
        };
      };
    };
    readonly responses: {
      /** @description Queued */
      readonly 202: {
        headers: {
          /** @description `true` when this is the stored answer to an earlier request with the same key */
          readonly 'Idempotent-Replayed'?: string;
          /** @description What is left of each: `"hour";r=N, "day";r=N` (recipients) */
          readonly RateLimit?: string;
          /** @description The hourly and daily allowances as draft-ietf-httpapi-ratelimit-headers names them: `"hour";q=N;w=3600, "day";q=N;w=86400` */
          readonly 'RateLimit-Policy'?: string;
          /** @description Test-mode keys only: `captured` (the message will end in the capture), or `unverified-domain` (captured too, and sent from a domain that is not verified: a live key would be refused) */
          readonly 'X-Mailroom-Test-Mode'?: string;
          /** @description The account’s hourly allowance (recipients) */
          readonly 'X-RateLimit-Limit'?: string;
          /** @description The daily allowance */
          readonly 'X-RateLimit-Limit-Day'?: string;
          /** @description What is left of it */
          readonly 'X-RateLimit-Remaining'?: string;
          /** @description What is left of it */
          readonly 'X-RateLimit-Remaining-Day'?: string;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['SendAccepted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, DOMAIN_NOT_VERIFIED, SUPPRESSED_RECIPIENT, API_KEY_DOMAIN_RESTRICTED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?:
                | 'ACCOUNT_SUSPENDED'
                | 'DOMAIN_NOT_VERIFIED'
                | 'SUPPRESSED_RECIPIENT'
                | 'API_KEY_DOMAIN_RESTRICTED'
                | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND';
            };
          };
        };
      };
      /** @description IDEMPOTENCY_KEY_REUSED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'IDEMPOTENCY_KEY_REUSED';
            };
          };
        };
      };
      /** @description EMAIL_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description INVALID_FROM_ADDRESS, INVALID_RECIPIENT, TOO_MANY_RECIPIENTS, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?:
                'INVALID_FROM_ADDRESS' | 'INVALID_RECIPIENT' | 'TOO_MANY_RECIPIENTS' | 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description SENDING_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'SENDING_LIMIT_EXCEEDED' | 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
      /** @description EMAIL_QUEUE_FAILED */
      readonly 503: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_QUEUE_FAILED';
            };
          };
        };
      };
    };
  };
  readonly getEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The message */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['EmailDetail'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly rescheduleEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          /** Format: date-time */
          readonly scheduledAt: string;
        };
      };
    };
    readonly responses: {
      /** @description The rescheduled message */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Email'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'FORBIDDEN' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description EMAIL_NOT_SCHEDULED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_SCHEDULED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly cancelEmail: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The cancelled message */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Email'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'FORBIDDEN' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description EMAIL_NOT_CANCELLABLE */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_CANCELLABLE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly previewEmail: {
    readonly parameters: {
      readonly query?: {
        readonly part?: 'html' | 'text';
        readonly remoteImages?: '0' | '1';
      };
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The body */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'text/html': string;
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, EMAIL_PART_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'EMAIL_PART_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getEmailRaw: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The message */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'message/rfc822': string;
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly sendEmailBatch: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: {
        /** @description 1–255 visible ASCII characters: the same key and body within 24 h answers the original 202 and creates nothing */
        readonly 'Idempotency-Key'?: string;
      };
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': readonly {
          readonly attachments?: readonly {
            readonly cid?: string;
            readonly content: string | readonly number[];
            readonly contentId?: string;
            readonly contentType?: string;
            readonly filename: string;
          }[];
          readonly bcc?: string | readonly string[];
          readonly cc?: string | readonly string[];
          readonly from: string;
          readonly headers?: {
            readonly [key: string]: string;
          };
          readonly html?: string;
          readonly metadata?: {
            readonly [key: string]: unknown;
          };
          readonly replyTo?: string | readonly string[];
          /** Format: date-time */
          readonly scheduledAt?: string;
          readonly subject: string;
          readonly tags?:
            | {
                readonly [key: string]: string;
              }
            | readonly {
                readonly name: string;
                readonly value: string;
              }[];
          readonly text?: string;
          readonly to: string | readonly string[];
        }[];
      };
    };
    readonly responses: {
      /** @description Queued, in the order given */
      readonly 202: {
        headers: {
          /** @description `true` when this is the stored answer to an earlier request with the same key */
          readonly 'Idempotent-Replayed'?: string;
          /** @description What is left of each: `"hour";r=N, "day";r=N` (recipients) */
          readonly RateLimit?: string;
          /** @description The hourly and daily allowances as draft-ietf-httpapi-ratelimit-headers names them: `"hour";q=N;w=3600, "day";q=N;w=86400` */
          readonly 'RateLimit-Policy'?: string;
          /** @description Test-mode keys only: `captured` (the message will end in the capture), or `unverified-domain` (captured too, and sent from a domain that is not verified: a live key would be refused) */
          readonly 'X-Mailroom-Test-Mode'?: string;
          /** @description The account’s hourly allowance (recipients) */
          readonly 'X-RateLimit-Limit'?: string;
          /** @description The daily allowance */
          readonly 'X-RateLimit-Limit-Day'?: string;
          /** @description What is left of it */
          readonly 'X-RateLimit-Remaining'?: string;
          /** @description What is left of it */
          readonly 'X-RateLimit-Remaining-Day'?: string;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['BatchAccepted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, DOMAIN_NOT_VERIFIED, SUPPRESSED_RECIPIENT, API_KEY_DOMAIN_RESTRICTED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?:
                | 'ACCOUNT_SUSPENDED'
                | 'DOMAIN_NOT_VERIFIED'
                | 'SUPPRESSED_RECIPIENT'
                | 'API_KEY_DOMAIN_RESTRICTED'
                | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description DOMAIN_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'DOMAIN_NOT_FOUND';
            };
          };
        };
      };
      /** @description IDEMPOTENCY_KEY_REUSED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'IDEMPOTENCY_KEY_REUSED';
            };
          };
        };
      };
      /** @description EMAIL_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description INVALID_FROM_ADDRESS, INVALID_RECIPIENT, TOO_MANY_RECIPIENTS, VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?:
                'INVALID_FROM_ADDRESS' | 'INVALID_RECIPIENT' | 'TOO_MANY_RECIPIENTS' | 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description SENDING_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'SENDING_LIMIT_EXCEEDED' | 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
      /** @description EMAIL_QUEUE_FAILED */
      readonly 503: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_QUEUE_FAILED';
            };
          };
        };
      };
    };
  };
  readonly listInbound: {
    readonly parameters: {
      readonly query?: {
        readonly cursor?: string;
        readonly domainId?: string;
        readonly limit?: number;
        readonly search?: string;
        readonly unread?: 'true' | 'false';
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of message summaries */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['InboundPage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getInbound: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The message */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['InboundMessage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly deleteInbound: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Deleted */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Deleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly markInbound: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly read: boolean;
        };
      };
    };
    readonly responses: {
      /** @description The message */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['InboundMessage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getInboundAttachment: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description Attachment id, as listed in the message’s `attachments` */
        readonly attachmentId: string;
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The file */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/octet-stream': string;
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, ATTACHMENT_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'ATTACHMENT_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly previewInbound: {
    readonly parameters: {
      readonly query?: {
        readonly part?: 'html' | 'text';
        readonly remoteImages?: '0' | '1';
      };
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The body */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'text/html': string;
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, EMAIL_PART_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'EMAIL_PART_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getInboundRaw: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The message as received */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'message/rfc822': string;
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description EMAIL_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorListAccounts: {
    readonly parameters: {
      readonly query?: {
        readonly cursor?: string;
        readonly limit?: number;
        readonly q?: string;
        readonly status?: 'ACTIVE' | 'SUSPENDED';
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of accounts */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccountPage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorSetAccountLimits: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly emailsPerDay?: number | null;
          readonly emailsPerHour?: number | null;
        };
      };
    };
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccount'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description ACCOUNT_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorReinstateAccount: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly reason?: string;
        };
      };
    };
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccount'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description ACCOUNT_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorSuspendAccount: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly reason: string;
        };
      };
    };
    readonly responses: {
      /** @description The account */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['OperatorAccount'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CANNOT_SUSPEND_SELF, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CANNOT_SUSPEND_SELF' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description ACCOUNT_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorListAudit: {
    readonly parameters: {
      readonly query?: {
        readonly account?: string;
        readonly action?: string;
        readonly actor?: string;
        readonly cursor?: string;
        readonly from?: string;
        readonly limit?: number;
        readonly target?: string;
        readonly to?: string;
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of audit entries */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['AuditPage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorListInvitations: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The pending invitations */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['InvitationList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorCreateInvitation: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly email: string;
          readonly expiresInDays?: number;
        };
      };
    };
    readonly responses: {
      /** @description The invitation, with its token */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['CreatedInvitation'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description EMAIL_ALREADY_REGISTERED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'EMAIL_ALREADY_REGISTERED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly operatorRevokeInvitation: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Revoked */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Deleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description FORBIDDEN, ACCOUNT_SUSPENDED, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'FORBIDDEN' | 'ACCOUNT_SUSPENDED' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description INVITATION_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INVITATION_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getSettings: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Settings */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Settings'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly lowerLimits: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly emailsPerDay?: number | null;
          readonly emailsPerHour?: number | null;
        };
      };
    };
    readonly responses: {
      /** @description Updated settings */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Settings'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'FORBIDDEN' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly healthSignals: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Signals */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['HealthSignals'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly statsOverview: {
    readonly parameters: {
      readonly query?: {
        readonly days?: number;
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Overview */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['StatsOverview'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly listSuppressions: {
    readonly parameters: {
      readonly query?: {
        readonly cursor?: string;
        readonly email?: string;
        readonly limit?: number;
        readonly q?: string;
        readonly type?: 'hard_bounce' | 'soft_bounce' | 'complaint' | 'manual' | 'unsubscribe';
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description A page of suppressions */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['SuppressionPage'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly createSuppression: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly email: string;
          readonly reason?: string;
          /**
           * @default manual
           * @enum {string}
           */
          readonly type?: 'hard_bounce' | 'soft_bounce' | 'complaint' | 'manual' | 'unsubscribe';
        };
      };
    };
    readonly responses: {
      /** @description Created */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Suppression'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'FORBIDDEN' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description SUPPRESSION_ALREADY_EXISTS */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'SUPPRESSION_ALREADY_EXISTS';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getSuppression: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The suppression id (`sup_…`) or the suppressed address (URL-encoded) */
        readonly idOrEmail: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The suppression */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Suppression'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description SUPPRESSION_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'SUPPRESSION_NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly deleteSuppression: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The suppression id (`sup_…`) or the suppressed address (URL-encoded) */
        readonly idOrEmail: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Removed */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Deleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, FORBIDDEN, RESTRICTED_API_KEY, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'FORBIDDEN' | 'RESTRICTED_API_KEY' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description SUPPRESSION_NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'SUPPRESSION_NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly listWebhooks: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Endpoints */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['WebhookList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly createWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly enabled?: boolean;
          readonly events: readonly (
            | 'email.sent'
            | 'email.delivered'
            | 'email.bounced'
            | 'email.failed'
            | 'email.complained'
            | 'email.received'
            | 'email.unsubscribed'
          )[];
          /**
           * @default mailroom
           * @enum {string}
           */
          readonly payloadFormat?: 'mailroom' | 'resend';
          readonly url: string;
        };
      };
    };
    readonly responses: {
      /** @description Created */
      readonly 201: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['CreatedWebhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_LIMIT_REACHED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_LIMIT_REACHED';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly getWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The endpoint */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['WebhookDetail'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly deleteWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Deleted */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Deleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly updateWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly enabled?: boolean;
          readonly events?: readonly (
            | 'email.sent'
            | 'email.delivered'
            | 'email.bounced'
            | 'email.failed'
            | 'email.complained'
            | 'email.received'
            | 'email.unsubscribed'
          )[];
          /** @enum {string} */
          readonly payloadFormat?: 'mailroom' | 'resend';
          readonly url?: string;
        };
      };
    };
    readonly responses: {
      /** @description Updated */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'PAYLOAD_TOO_LARGE';
            };
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNSUPPORTED_MEDIA_TYPE';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly redeliverWebhookAttempt: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description attemptId */
        readonly attemptId: string;
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Queued */
      readonly 202: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['WebhookRedeliveryQueued'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, WEBHOOK_ATTEMPT_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'WEBHOOK_ATTEMPT_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description WEBHOOK_DISABLED, WEBHOOK_EVENT_EXPIRED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_DISABLED' | 'WEBHOOK_EVENT_EXPIRED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly enableWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Enabled */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly rotateWebhookSecret: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The endpoint with its new secret */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['RotatedWebhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly testWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Queued */
      readonly 202: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['WebhookTestQueued'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'UNAUTHORIZED' | 'INVALID_API_KEY';
            };
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'ACCOUNT_SUSPENDED' | 'RESTRICTED_API_KEY' | 'FORBIDDEN' | 'CSRF_FAILED';
            };
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_NOT_FOUND' | 'NOT_FOUND';
            };
          };
        };
      };
      /** @description WEBHOOK_DISABLED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'WEBHOOK_DISABLED';
            };
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'VALIDATION_ERROR';
            };
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'RATE_LIMIT_EXCEEDED';
            };
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['Error'] & {
            readonly error?: {
              /** @enum {unknown} */
              readonly code?: 'INTERNAL_ERROR';
            };
          };
        };
      };
    };
  };
  readonly resendListWebhooks: {
    readonly parameters: {
      readonly query?: {
        readonly after?: string;
        readonly limit?: number;
      };
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Endpoints */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendWebhookList'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendCreateWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly endpoint: string;
          readonly events: readonly string[];
        };
      };
    };
    readonly responses: {
      /** @description Created */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendCreatedWebhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description WEBHOOK_LIMIT_REACHED */
      readonly 409: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
      /** @description NOT_IMPLEMENTED */
      readonly 501: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_implemented';
          };
        };
      };
    };
  };
  readonly resendGetWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description The endpoint */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendWebhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendRemoveWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Removed */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendDeleted'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
  readonly resendUpdateWebhook: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody: {
      readonly content: {
        readonly 'application/json': {
          readonly endpoint?: string;
          readonly events?: readonly string[];
          /** @enum {string} */
          readonly status?: 'enabled' | 'disabled';
        };
      };
    };
    readonly responses: {
      /** @description Updated */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendObjectId'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description PAYLOAD_TOO_LARGE */
      readonly 413: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      readonly 415: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
      /** @description NOT_IMPLEMENTED */
      readonly 501: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_implemented';
          };
        };
      };
    };
  };
  readonly resendRotateWebhookSecret: {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path: {
        /** @description The resource id (operator routes: an account id or its email address) */
        readonly id: string;
      };
      readonly cookie?: never;
    };
    readonly requestBody?: never;
    readonly responses: {
      /** @description Rotated */
      readonly 200: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendCreatedWebhook'];
        };
      };
      /** @description UNAUTHORIZED, INVALID_API_KEY */
      readonly 401: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'missing_api_key' | 'invalid_api_key';
          };
        };
      };
      /** @description ACCOUNT_SUSPENDED, RESTRICTED_API_KEY, FORBIDDEN, CSRF_FAILED */
      readonly 403: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'invalid_access' | 'restricted_api_key';
          };
        };
      };
      /** @description WEBHOOK_NOT_FOUND, NOT_FOUND */
      readonly 404: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'not_found';
          };
        };
      };
      /** @description VALIDATION_ERROR */
      readonly 422: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'validation_error' | 'invalid_idempotency_key';
          };
        };
      };
      /** @description RATE_LIMIT_EXCEEDED */
      readonly 429: {
        headers: {
          /** @description Seconds to wait */
          readonly 'Retry-After'?: number;
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'rate_limit_exceeded';
          };
        };
      };
      /** @description INTERNAL_ERROR */
      readonly 500: {
        headers: {
          readonly [name: string]: unknown;
        };
        content: {
          readonly 'application/json': components['schemas']['ResendError'] & {
            /** @enum {unknown} */
            readonly name?: 'internal_server_error';
          };
        };
      };
    };
  };
}
