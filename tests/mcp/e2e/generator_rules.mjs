// The documented rules of two function-calling dialects, as checkers, and the transformations a
// client applies to an MCP input schema to meet them (as the Vercel AI SDK, LangChain and the
// OpenAI Agents SDK do). Used by generators.test.mjs on the input schemas of tools/list.
//
// OpenAI, function tools with `strict: true` (the "Supported schemas" section of the Structured
// Outputs guide): the root is an object, not anyOf; every object has `additionalProperties: false`
// and lists every property in `required` (an optional field is a union with null); the types are
// string, number, boolean, integer, object, array, null, and enum and anyOf; the keywords besides
// these are pattern and format (a closed list) for strings, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum and multipleOf for numbers, minItems and maxItems for arrays, and $defs/$ref;
// not supported: allOf, not, oneOf, if/then/else, dependentRequired, dependentSchemas,
// patternProperties, minLength, maxLength; at most 5,000 properties, 10 levels of nesting and 1,000
// enum values in all; a function name is [a-zA-Z0-9_-]{1,64}.
//
// Gemini, a FunctionDeclaration's `parameters` (the API reference's Schema object, "a select subset
// of an OpenAPI 3.0 schema object"): the fields type (one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY,
// OBJECT; any case), format, title, description, nullable, enum (strings, on a string), maxItems,
// minItems, properties, required, minProperties, maxProperties, minLength, maxLength, pattern,
// example, anyOf, propertyOrdering, default, items, minimum, maximum. No $ref/$defs, oneOf, allOf,
// not, const, additionalProperties, exclusiveMinimum/exclusiveMaximum, type arrays. A function name
// starts with a letter or an underscore, then [a-zA-Z0-9_.-], at most 64; a parameter name is
// [a-zA-Z_][a-zA-Z0-9_]{0,63}. Formats: float and double on numbers, int32 and int64 on integers,
// enum and date-time on strings.

const openaiKeywords = new Set(['type', 'description', 'properties', 'required', 'additionalProperties',
  'items', 'enum', 'anyOf', '$defs', '$ref', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems']);
const openaiTypes = new Set(['string', 'number', 'boolean', 'integer', 'object', 'array', 'null']);
const openaiFormats = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

// Every rule the schema breaks, as "path: what" strings; none means OpenAI strict mode takes it.
export function openaiStrictProblems(name, schema) {
  const problems = [];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) problems.push(`name ${name}`);
  if (schema.type !== 'object' || schema.anyOf) problems.push('/: the root must be an object, not anyOf');
  let properties = 0, enums = 0;
  const walk = (s, path, depth) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) { problems.push(`${path}: not a schema`); return; }
    if (depth > 10) problems.push(`${path}: more than 10 levels of nesting`);
    for (const key of Object.keys(s))
      if (!openaiKeywords.has(key)) problems.push(`${path}: ${key} is not supported`);
    const types = s.type === undefined ? [] : [s.type].flat();
    for (const t of types) if (!openaiTypes.has(t)) problems.push(`${path}: type ${t}`);
    if (s.type === undefined && !s.anyOf && !s.enum && !s.$ref) problems.push(`${path}: no type`);
    if (s.format !== undefined && !openaiFormats.has(s.format)) problems.push(`${path}: format ${s.format}`);
    if (types.includes('object')) {
      if (s.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const keys = Object.keys(s.properties ?? {});
      properties += keys.length;
      const required = new Set(s.required ?? []);
      for (const k of keys) if (!required.has(k)) problems.push(`${path}/${k}: not required`);
      for (const k of keys) walk(s.properties[k], `${path}/${k}`, depth + 1);
    }
    if (s.enum) enums += s.enum.length;
    if (s.items) walk(s.items, `${path}/items`, depth + 1);
    for (const [i, b] of (s.anyOf ?? []).entries()) walk(b, `${path}/anyOf/${i}`, depth);
    for (const [k, d] of Object.entries(s.$defs ?? {})) walk(d, `${path}/$defs/${k}`, depth);
  };
  walk(schema, '', 1);
  if (properties > 5000) problems.push(`${properties} properties`);
  if (enums > 1000) problems.push(`${enums} enum values`);
  return problems;
}

const geminiKeywords = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems',
  'minItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern',
  'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum']);
const geminiFormats = { string: ['enum', 'date-time'], number: ['float', 'double'], integer: ['int32', 'int64'] };

export function geminiProblems(name, schema) {
  const problems = [];
  if (!/^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/.test(name)) problems.push(`name ${name}`);
  const walk = (s, path) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) { problems.push(`${path}: not a schema`); return; }
    for (const key of Object.keys(s))
      if (!geminiKeywords.has(key)) problems.push(`${path}: ${key} is not supported`);
    const type = typeof s.type === 'string' ? s.type.toLowerCase() : s.type;
    if (type === undefined) {
      if (!s.anyOf) problems.push(`${path}: no type`);
    } else if (!['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(type)) {
      problems.push(`${path}: type ${JSON.stringify(s.type)}`);
    }
    if (s.format !== undefined && !(geminiFormats[type] ?? []).includes(s.format)) problems.push(`${path}: format ${s.format}`);
    if (s.enum !== undefined && (type !== 'string' || !s.enum.every((v) => typeof v === 'string')))
      problems.push(`${path}: enum on a ${type}`);
    if (type === 'array' && !s.items) problems.push(`${path}: an array without items`);
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      if (!/^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/.test(k)) problems.push(`${path}: parameter name ${k}`);
      walk(p, `${path}/${k}`);
    }
    for (const r of s.required ?? []) if (!(s.properties ?? {})[r]) problems.push(`${path}: ${r} required, not a property`);
    if (s.items) walk(s.items, `${path}/items`);
    for (const [i, b] of (s.anyOf ?? []).entries()) walk(b, `${path}/anyOf/${i}`);
  };
  walk(schema, '');
  return problems;
}

const clone = (x) => JSON.parse(JSON.stringify(x));

// An MCP input schema (a flat object of parameters, as api::input_schema writes it) made strict for
// OpenAI: every parameter required, an optional one nullable, maxLength dropped. `dropped` lists
// each constraint left out, which the server must still enforce. The model's arguments come back
// with null for an omitted parameter: fromOpenAIArguments removes those before the call.
export function toOpenAIStrict(schema) {
  const out = clone(schema);
  const dropped = [];
  const required = new Set(schema.required ?? []);
  for (const [k, p] of Object.entries(out.properties)) {
    if (p.maxLength !== undefined) {
      dropped.push({ parameter: k, keyword: 'maxLength', value: p.maxLength });
      delete p.maxLength;
    }
    if (required.has(k)) continue;
    if (p.anyOf) p.anyOf.push({ type: 'null' });
    else {
      p.type = [p.type, 'null'];
      if (p.enum) p.enum = [...p.enum, null];
    }
  }
  out.required = Object.keys(out.properties);
  out.additionalProperties = false;
  return { schema: out, dropped };
}

// The arguments as a model in strict mode writes them: every parameter, null for one not given.
export function toOpenAIArguments(schema, args) {
  return { ...Object.fromEntries(Object.keys(schema.properties).map((k) => [k, null])), ...args };
}

export function fromOpenAIArguments(args) {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
}

// The same input schema as a Gemini declaration's parameters: additionalProperties and
// exclusiveMinimum are not in its subset. An exclusive minimum becomes an inclusive one (the model
// may then send the bound itself, which the server refuses as it refuses any out-of-range value).
export function toGemini(schema) {
  const out = clone(schema);
  const dropped = [];
  if ('additionalProperties' in out) {
    dropped.push({ parameter: '*', keyword: 'additionalProperties', value: out.additionalProperties });
    delete out.additionalProperties;
  }
  for (const [k, p] of Object.entries(out.properties)) {
    if (p.exclusiveMinimum !== undefined) {
      dropped.push({ parameter: k, keyword: 'exclusiveMinimum', value: p.exclusiveMinimum });
      p.minimum = p.exclusiveMinimum;
      delete p.exclusiveMinimum;
    }
  }
  return { schema: out, dropped };
}
