// The face of the domains module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { domainNotFound } from './domains.errors';
export type { DomainRow } from './domains.repository';
export { findDomain } from './domains.repository';
