'use strict';
// HEALTHCHECK for the image: GET /health on the API, exit 0 when it answers 2xx.
// The slim base has no curl; this runs on the image's own node. It reaches the API
// where it listens: BIND_ADDRESS, or loopback when that is a wildcard address.
const bind = process.env.BIND_ADDRESS || '0.0.0.0';
const host = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT || '3000'}/health`;
fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
