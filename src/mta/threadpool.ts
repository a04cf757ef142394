/**
 * Imported first by src/mta/main.ts: libuv reads UV_THREADPOOL_SIZE when its
 * pool first starts, so this must run before any file system, crypto or DNS
 * work. Haraka writes, fsyncs, renames, reads back and unlinks every queue file
 * on that pool; with libuv's default 4 threads a few slow fsyncs stall all the
 * others (issue 11, end to end). An operator's own value wins.
 */
const HARAKA_THREADPOOL_SIZE = 32;

// eslint-disable-next-line no-restricted-properties -- a write for libuv, not a setting we read
process.env.UV_THREADPOOL_SIZE ??= String(HARAKA_THREADPOOL_SIZE);
