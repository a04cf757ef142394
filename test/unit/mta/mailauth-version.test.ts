// Issue 18 item 8: src/mail/dkim-sign.ts subclasses mailauth's DkimSigner and calls its
// internal modules. An upgrade may change them without any type error (the declarations
// are ours, mailauth ships none), so the version it was checked against is pinned and a
// different one fails here with what to re-check.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MAILAUTH_VERSION_CHECKED } from '../../../src/mail/dkim-sign';

const RECHECK = `Before setting MAILAUTH_VERSION_CHECKED (src/mail/dkim-sign.ts) to it, re-check in that
version's source what KeyObjectSigner and src/mta/mailauth-signer.d.ts rely on:
- lib/dkim/dkim-signer.js: DkimSigner's constructor options, its fields signatureData,
  signatureHeaders, errors, headers.parsed, signTime, expires, bodyHashes (keyed
  "relaxed:sha256:<maxBodyLength>", value {hash}), and getFieldNames(),
  validateSigningIdentifiers(), getTimestamps(), finalize() (still the one place the
  signature is made, still awaited once the body has been written);
- lib/dkim/header.js: generateCanonicalizedHeader('DKIM', lines, options) and its
  {canonicalizedHeader, dkimHeaderOpts};
- lib/tools.js: getSigningHeaderLines(), formatSignatureHeaderLine(), writeToStream().
Then run test/unit/mta/dkim-sign.test.ts and test/security/from-spoofing.test.ts (they
verify our signatures with mailauth's verifier, over-signing included) and the
delivery/MTA integration tests that sign real mail (test/integration/mta*.test.ts,
test/integration/emails-delivery*.test.ts).`;

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

describe('mailauth, whose signer internals src/mail/dkim-sign.ts builds on', () => {
  it('is installed at the version the subclass was checked against', () => {
    const installed = readJson(require.resolve('mailauth/package.json')).version;
    assert.equal(
      installed,
      MAILAUTH_VERSION_CHECKED,
      `mailauth ${String(installed)} is installed; KeyObjectSigner was checked against ${MAILAUTH_VERSION_CHECKED}.\n${RECHECK}`,
    );
  });

  it('is pinned to that exact version in package.json', () => {
    const root = path.resolve(__dirname, '../../../..');
    const declared = (readJson(path.join(root, 'package.json')).dependencies as Record<string, string>)
      .mailauth;
    assert.equal(
      declared,
      MAILAUTH_VERSION_CHECKED,
      `package.json asks for mailauth "${declared}": pin the exact version the signer was checked against (no ^ or ~), so an install cannot move it.\n${RECHECK}`,
    );
  });
});
