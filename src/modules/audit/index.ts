// The face of the audit module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export type { Actor } from './audit.repository';
export { withAuditNames } from './audit-names.repository';
export { listAuditPage, recordAudit, systemActor } from './audit.repository';
