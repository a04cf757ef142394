/**
 * A small JSON Schema 2020-12 checker for the subset the OpenAPI document uses
 * (type, enum, const, properties, required, items, additionalProperties, allOf,
 * anyOf, local $ref). Strict: an object checked against a schema that lists
 * `required`, or is closed (every zod response object), may not carry a
 * property the schema does not declare, so a view that grows a field fails.
 */
export type Schema = Readonly<Record<string, unknown>>;

function resolve(root: unknown, schema: Schema): Schema {
  const target = schema.$ref;
  if (typeof target !== 'string') return schema;
  if (!target.startsWith('#/')) throw new Error(`unsupported $ref ${target}`);
  let node: unknown = root;
  for (const part of target.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node === undefined) throw new Error(`unresolved $ref ${target}`);
  return resolve(root, node as Schema);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Property names a schema declares, through allOf and $ref. */
function declared(root: unknown, schema: Schema): Set<string> {
  const s = resolve(root, schema);
  const names = new Set(Object.keys((s.properties as Record<string, unknown> | undefined) ?? {}));
  for (const part of (s.allOf as Schema[] | undefined) ?? [])
    for (const n of declared(root, part)) names.add(n);
  return names;
}

/** Problems found, as `path: message`; empty when the value conforms. */
export function checkSchema(
  root: unknown,
  schema: Schema,
  value: unknown,
  at = '$',
  strict = true,
): string[] {
  const s = resolve(root, schema);
  const errors: string[] = [];
  const t = typeOf(value);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const ok = types.some((x) => x === t || (x === 'number' && t === 'integer'));
    if (!ok) return [`${at}: expected ${types.join('|')}, got ${t}`];
  }
  if (Array.isArray(s.enum) && !s.enum.includes(value))
    errors.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if ('const' in s && s.const !== value) errors.push(`${at}: expected ${JSON.stringify(s.const)}`);
  for (const part of (s.allOf as Schema[] | undefined) ?? []) {
    errors.push(...checkSchema(root, part, value, at, false));
  }
  if (Array.isArray(s.anyOf)) {
    const results = (s.anyOf as Schema[]).map((part) => checkSchema(root, part, value, at, strict));
    if (!results.some((r) => r.length === 0))
      errors.push(`${at}: matches no anyOf branch (${results.flat().join('; ')})`);
  }
  if (t === 'array' && s.items !== undefined) {
    (value as unknown[]).forEach((v, i) =>
      errors.push(...checkSchema(root, s.items as Schema, v, `${at}[${i}]`)),
    );
  }
  if (t === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    for (const name of (s.required as string[] | undefined) ?? []) {
      if (!(name in obj)) errors.push(`${at}: missing required ${name}`);
    }
    for (const [name, v] of Object.entries(obj)) {
      const prop = props[name];
      if (prop) errors.push(...checkSchema(root, prop, v, `${at}.${name}`));
      else if (typeof s.additionalProperties === 'object') {
        errors.push(...checkSchema(root, s.additionalProperties as Schema, v, `${at}.${name}`));
      }
    }
    const isShape = Array.isArray(s.required) || Array.isArray(s.allOf);
    // A closed object (`additionalProperties: false`, every zod response object) or, under
    // `strict`, any shape: a property the schema does not declare is a problem.
    if (s.additionalProperties === false || (strict && isShape && s.additionalProperties === undefined)) {
      const known = declared(root, s);
      for (const name of Object.keys(obj))
        if (!known.has(name)) errors.push(`${at}: undeclared property ${name}`);
    }
  }
  return errors;
}
