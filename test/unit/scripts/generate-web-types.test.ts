import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

// dist/test/unit/scripts → the repository root.
const SCRIPT = path.resolve(__dirname, '../../../../scripts/generate-web-types.mjs');

/** What scripts/generate-web-types.mjs exports. */
interface WebTypesScript {
  readonly WEB_TYPES_FILE: string;
  readonly WEB_TYPES_COMMAND: string;
  webTypesSource(): Promise<string>;
}

/** The first line where two texts differ, both versions, for a failure a person can act on. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')}, generated ${JSON.stringify(b[at] ?? '(end)')}`;
}

describe('the dashboard’s API types (web/src/generated/openapi.ts)', () => {
  it('are what the OpenAPI document generates today', async () => {
    const script = (await import(pathToFileURL(SCRIPT).href)) as WebTypesScript;
    const committed = fs.readFileSync(script.WEB_TYPES_FILE, 'utf8');
    const generated = await script.webTypesSource();
    assert.ok(
      committed === generated,
      `web/src/generated/openapi.ts is stale: regenerate it with \`${script.WEB_TYPES_COMMAND}\` ` +
        `(first difference at ${firstDifference(committed, generated)})`,
    );
  });
});
