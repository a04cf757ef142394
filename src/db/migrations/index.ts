import type { Migration } from 'kysely/migration';
import * as m001 from './001-foundation';
import * as m002 from './002-domains';
import * as m003 from './003-emails';
import * as m004 from './004-webhooks';
import * as m005 from './005-governance';
import * as m006 from './006-inbound';
import * as m007 from './007-bounces';
import * as m008 from './008-submission';
import * as m009 from './009-quota-windows';
import * as m010 from './010-operator-limits';
import * as m011 from './011-test-mode';
import * as m012 from './012-user-role';
import * as m013 from './013-email-list-index';
import * as m014 from './014-api-key-permissions';
import * as m015 from './015-webhook-payload-format';
import * as m016 from './016-domain-unsubscribe-link';
import * as m017 from './017-webhook-response-excerpt';
import * as m018 from './018-domain-status-history';
import * as m019 from './019-delivery-tls';
import * as m020 from './020-nodes';
import * as m021 from './021-shared-store';
import * as m022 from './022-jobs-postgres';
import * as m023 from './023-daily-count-slots';
import * as m024 from './024-live-mail-index';
import * as m025 from './025-invitations';
import * as m026 from './026-inbound-unparsed';
import * as m027 from './027-webhook-attempt-request';

/** Numbered migrations, applied in key order at start. Append; never edit a shipped one. */
export const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-domains': m002,
  '003-emails': m003,
  '004-webhooks': m004,
  '005-governance': m005,
  '006-inbound': m006,
  '007-bounces': m007,
  '008-submission': m008,
  '009-quota-windows': m009,
  '010-operator-limits': m010,
  '011-test-mode': m011,
  '012-user-role': m012,
  '013-email-list-index': m013,
  '014-api-key-permissions': m014,
  '015-webhook-payload-format': m015,
  '016-domain-unsubscribe-link': m016,
  '017-webhook-response-excerpt': m017,
  '018-domain-status-history': m018,
  '019-delivery-tls': m019,
  '020-nodes': m020,
  '021-shared-store': m021,
  '022-jobs-postgres': m022,
  '023-daily-count-slots': m023,
  '024-live-mail-index': m024,
  '025-invitations': m025,
  '026-inbound-unparsed': m026,
  '027-webhook-attempt-request': m027,
};
