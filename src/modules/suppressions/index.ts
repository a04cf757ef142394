// The face of the suppressions module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { findSuppressed } from './suppressions.repository';
export { suppressAutomatically } from './suppressions.usecases';
