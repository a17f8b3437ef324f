// A tool's input JSON Schema in the shape Gemini's function declarations take: the OpenAPI 3.0 subset of its
// `Schema` object (ai.google.dev/api/caching#Schema), with upper-case type names. Keywords Gemini does not know are
// dropped when leaving them out only loosens the schema (additionalProperties, $schema), and refused when it would
// change what a model may send ($ref, oneOf, not): a tool that needs one must say so here rather than ship a wrong
// declaration.
type JsonSchema = Record<string, unknown>;

const TYPES: Record<string, string> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

/** Gemini's Schema fields that carry over from JSON Schema unchanged. */
const KEPT = new Set([
  'description',
  'enum',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'required',
  'default',
  'title',
]);
const DROPPED = new Set(['$schema', 'additionalProperties']);

export function geminiSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = value;
    else if (DROPPED.has(key)) continue;
    else if (key === 'type') {
      out.type = geminiType(value);
      if (Array.isArray(value) && value.includes('null')) out.nullable = true;
    }
    else if (key === 'const') out.enum = [value];
    else if (key === 'properties') {
      const props = value as Record<string, JsonSchema>;
      out.properties = Object.fromEntries(Object.entries(props).map(([name, sub]) => [name, geminiSchema(sub)]));
      out.propertyOrdering = Object.keys(props); // Gemini otherwise orders arguments alphabetically
    } else if (key === 'items') out.items = geminiSchema(value as JsonSchema);
    else if (key === 'anyOf') out.anyOf = (value as JsonSchema[]).map(geminiSchema);
    else throw new Error(`JSON Schema keyword "${key}" has no Gemini equivalent`);
  }
  return out;
}

function geminiType(type: unknown): string {
  // ["string", "null"] is a nullable STRING (the caller sets `nullable`); any other list has no single Gemini type.
  if (Array.isArray(type)) {
    const rest = type.filter((t) => t !== 'null');
    if (rest.length !== 1) throw new Error(`JSON Schema type ${JSON.stringify(type)} has no Gemini equivalent`);
    return geminiType(rest[0]);
  }
  const mapped = TYPES[String(type)];
  if (!mapped) throw new Error(`JSON Schema type ${JSON.stringify(type)} has no Gemini equivalent`);
  return mapped;
}
