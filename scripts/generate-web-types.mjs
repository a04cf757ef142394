// The dashboard's API types, generated from the OpenAPI document (issue 30 item 3):
// `npm run generate:web-types` writes web/src/generated/openapi.ts from the compiled code in dist/
// (run `npm run build` first). The document is the one GET /openapi.json serves, built by the same
// createApp and buildOpenApiDocument the api process uses, so no server runs. The freshness test
// (test/unit/web/web-types.test.ts) imports webTypesSource() and compares it with the committed file.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_TYPES_FILE = path.join(REPO_ROOT, 'web', 'src', 'generated', 'openapi.ts');
export const WEB_TYPES_COMMAND = 'npm run build && npm run generate:web-types';

const HEADER = `// Generated from the OpenAPI document (GET /openapi.json) by \`${WEB_TYPES_COMMAND}\`
// (scripts/generate-web-types.mjs, with openapi-typescript). Do not edit: change the route
// declarations or the response schemas (src/modules/*/*.responses.ts) and regenerate;
// test/unit/web/web-types.test.ts fails while this file is stale.
`;

const require = createRequire(import.meta.url);
const dist = (file) => {
  const full = path.join(REPO_ROOT, 'dist', 'src', file);
  if (!fs.existsSync(full)) throw new Error(`${full} is missing: run \`npm run build\` first`);
  return require(full);
};

/** The OpenAPI document as the api process builds it: its routes declared on a scratch database. */
export async function openApiDocument() {
  const { parseConfig } = dist('config/index.js');
  const { openDatabase } = dist('db/connect.js');
  const { startApiWriter } = dist('api/api-writer.js');
  const { createApp } = dist('api/app.js');
  const { buildOpenApiDocument } = dist('api/openapi.js');
  const { SessionSigner } = dist('modules/accounts/sessions.js');
  const pino = require('pino');

  // Declaring routes reads nothing from the database; the scratch one only satisfies createApp.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-web-types-'));
  const url = `sqlite:${path.join(dataDir, 'mail.db')}`;
  const config = { ...parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url }), secretKey: 'k'.repeat(32) };
  const db = openDatabase(url);
  // The writer thread starts with the first send, and there is none.
  const writer = startApiWriter(config, {
    onFatal: (err) => {
      throw err;
    },
  });
  try {
    const api = createApp({
      db,
      sendCommitter: writer,
      config,
      log: pino({ level: 'silent' }),
      sessions: new SessionSigner(config.secretKey, 60),
    });
    api.close();
    // A fixed base URL: `servers` is the only part that depends on it, and no type does.
    return buildOpenApiDocument({ baseUrl: 'http://localhost:3000', operations: api.operations });
  } finally {
    await writer.close();
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** web/src/generated/openapi.ts as it should read: the types, formatted as `npm run format` would. */
export async function webTypesSource() {
  const document = await openApiDocument();
  // Readonly throughout: the screens read views, they never build them. Alphabetised, so the file
  // does not change when only the order the modules load in (and register their schemas) does.
  const ast = await openapiTS(document, { immutable: true, alphabetize: true });
  const source = HEADER + '\n' + astToString(ast);
  const options = (await prettier.resolveConfig(WEB_TYPES_FILE)) ?? {};
  return prettier.format(source, { ...options, filepath: WEB_TYPES_FILE });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const source = await webTypesSource();
  fs.mkdirSync(path.dirname(WEB_TYPES_FILE), { recursive: true });
  fs.writeFileSync(WEB_TYPES_FILE, source);
  console.log(`wrote ${path.relative(REPO_ROOT, WEB_TYPES_FILE)}`);
}
