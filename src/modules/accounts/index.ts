// The face of the accounts module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { accountNotFound } from './accounts.errors';
export type { UserRow } from './accounts.repository';
export { findUserById, setOwnLimits } from './accounts.repository';
export { suspendAccount } from './accounts.usecases';
