import assert from 'node:assert/strict';
import type { Schema } from './json-schema';
import { checkSchema } from './json-schema';

/** Asserts a value against a components.schemas entry of the running appliance's own /openapi.json. */
export type ShapeCheck = (schemaName: string, value: unknown) => void;

/** Reads the document once; checks are strict (an undeclared field fails), as in openapi.test.ts. */
export async function openApiShapes(baseUrl: string): Promise<ShapeCheck> {
  const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Schema;
  return (schemaName, value) => {
    const problems = checkSchema(doc, { $ref: `#/components/schemas/${schemaName}` }, value);
    assert.deepEqual(problems, [], `${schemaName}: ${JSON.stringify(value)}`);
  };
}
