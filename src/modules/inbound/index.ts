// The face of the inbound module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export type { RawStore, StagedRaw } from './raw-store';
export { DB_RAW_PREFIX } from './raw-store';
export { commitStagedRaws, rawStoreFor } from './raw-store-of';
export { rescueFailedInbound } from './rescue-failed-inbound';
