// The tools' schemas as the generators and model APIs that clients feed them to take them, against
// a real lowcostgpu over Streamable HTTP (issue 28, item 2):
//   - zod 4's z.fromJSONSchema builds every tool's outputSchema and inputSchema, parses the real
//     structuredContent of every valid call (tool_calls.mjs) and the call's own arguments, and
//     rejects a result with a required field removed (so the schemas it builds are not vacuous);
//   - OpenAI strict function schemas and Gemini function declarations (generator_rules.mjs: the
//     documented rules as checkers) take each input schema after the transformation every client of
//     theirs makes, and that transformation is lossless: every call the input schema accepts passes
//     through it unchanged, and each constraint it drops is refused by the server itself.
//
// Run by tests/mcp/e2e/run generators, which starts the server and sets LCG_MCP_BASE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import * as z from 'zod';

import { calls, toolNames } from './tool_calls.mjs';
import { fromOpenAIArguments, geminiProblems, openaiStrictProblems, toGemini, toOpenAIArguments,
  toOpenAIStrict } from './generator_rules.mjs';

const base = process.env.LCG_MCP_BASE;
if (!base) throw new Error('LCG_MCP_BASE must be set: run tests/mcp/e2e/run generators');

let client;
let tools;

before(async () => {
  client = new Client({ name: 'lowcostgpu-generators', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  tools = (await client.listTools()).tools;
  assert.deepEqual(tools.map((t) => t.name), toolNames, 'the tools of the registry, in order');
});

after(async () => {
  await client?.close();
});

const ajv = new Ajv2020({ allErrors: true, strict: false });

const zodIssues = (error) => error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

// The document without the first property its schema requires at the top level.
function withoutFirstRequired(doc, schema) {
  const copy = structuredClone(doc);
  delete copy[schema.required[0]];
  return copy;
}

test('zod 4: fromJSONSchema takes every tool\'s schemas and parses every real result', async () => {
  const failures = [];
  const failing = new Set();
  let parsed = 0;
  for (const tool of tools) {
    let output, input;
    try {
      output = z.fromJSONSchema(tool.outputSchema);
      input = z.fromJSONSchema(tool.inputSchema);
    } catch (e) {
      failures.push(`${tool.name}: fromJSONSchema: ${e.message}`);
      failing.add(tool.name);
      continue;
    }
    // zod and ajv give the same verdict on every argument set, valid or not (a valid call may be
    // outside the schema: the server also takes a tier's other names, such as "interruptible").
    const inputAjv = ajv.compile(tool.inputSchema);
    for (const args of [...calls[tool.name].valid, ...calls[tool.name].invalid]) {
      if (input.safeParse(args).success !== inputAjv(args)) {
        failures.push(`${tool.name}(${JSON.stringify(args)}): zod and ajv disagree on the input schema`);
        failing.add(tool.name);
      }
    }
    for (const args of calls[tool.name].valid) {
      const what = `${tool.name}(${JSON.stringify(args)})`;
      const result = await client.callTool({ name: tool.name, arguments: args });
      assert.equal(result.isError, false, `${what}: ${result.content?.[0]?.text}`);
      const outputResult = output.safeParse(result.structuredContent);
      if (!outputResult.success) {
        failures.push(`${what}: the result fails the output schema: ${zodIssues(outputResult.error)}`);
        failing.add(tool.name);
        continue;
      }
      // Parsing keeps the document as it is: no key dropped or added, no value coerced.
      assert.deepEqual(outputResult.data, result.structuredContent, `${what}: zod changed the document`);
      const broken = withoutFirstRequired(result.structuredContent, tool.outputSchema);
      if (output.safeParse(broken).success) {
        failures.push(`${what}: still passes without ${tool.outputSchema.required[0]}`);
        failing.add(tool.name);
      }
      parsed++;
    }
  }
  console.log(`# zod: ${tools.length - failing.size} of ${tools.length} tools pass, ${parsed} real results parsed` +
    (failing.size ? `; failing: ${[...failing].join(', ')}` : ''));
  assert.deepEqual(failures, []);
});

test('zod 4: the schemas it builds hold the rules inside a document (a row\'s branches, its market)', async () => {
  const sheet = z.fromJSONSchema(tools.find((t) => t.name === 'get_prices').outputSchema);
  const doc = (await client.callTool({ name: 'get_prices', arguments: {} })).structuredContent;
  const at = doc.prices.findIndex((r) => r.available && r.market);
  assert.ok(at >= 0, 'the sample sheet has a priced model with its market');
  assert.ok(sheet.safeParse(doc).success);
  const mutate = (f) => { const d = structuredClone(doc); f(d.prices[at]); return d; };
  const unpriced = (row) => {
    row.available = false;
    for (const k of ['median', 'cap', 'on_demand', 'spot', 'reserved', 'headroom']) delete row[k];
    row.reason = 'fewer than 3 sources';
  };
  const accepted = {
    'a row without a price, with its reason': mutate(unpriced),
    'a row without its market, listings, sources and by_source': mutate((row) => {
      for (const k of ['market', 'listings', 'sources', 'by_source']) delete row[k]; }),
  };
  const refused = {
    'a priced row without on_demand': mutate((row) => { delete row.on_demand; }),
    'a row without a price and without a reason': mutate((row) => { unpriced(row); delete row.reason; }),
    'a row said unavailable that keeps its rates and has no reason': mutate((row) => { row.available = false; }),
    'a row with its market but without by_source': mutate((row) => { delete row.by_source; }),
    'a row with listings but no market': mutate((row) => { delete row.market; }),
    'money as a number': mutate((row) => { row.on_demand = 1.68; }),
    'money with a unit': mutate((row) => { row.on_demand = '1.680 USD'; }),
  };
  for (const [what, d] of Object.entries(accepted)) {
    const r = sheet.safeParse(d);
    assert.ok(r.success, `${what}: ${r.success || zodIssues(r.error)}`);
  }
  for (const [what, d] of Object.entries(refused)) assert.equal(sheet.safeParse(d).success, false, what);
});

// Every valid call and every invalid one of tool_calls.mjs, and for each constraint a
// transformation drops, an argument that breaks only that constraint.
function breaking(tool, dropped) {
  const valid = calls[tool.name].valid[0];
  if (dropped.keyword === 'maxLength') return { ...valid, [dropped.parameter]: 'x'.repeat(dropped.value + 1) };
  if (dropped.keyword === 'exclusiveMinimum') return { ...valid, [dropped.parameter]: dropped.value };
  if (dropped.keyword === 'additionalProperties') return { ...valid, no_such_parameter: 1 };
  throw new Error(`no breaking argument for ${dropped.keyword}`);
}

// The transformation takes every input schema to one the rules accept, carries every call the
// schema accepts unchanged (encoded for the model's side, decoded before the call), and whatever it
// lets through that the schema forbids, the server refuses. Returns the constraints it dropped.
async function checkTransformation(label, transform, rules, encode, decode) {
  const problems = [];
  const droppedAll = [];
  for (const tool of tools) {
    const { schema, dropped } = transform(tool.inputSchema);
    problems.push(...rules(tool.name, schema).map((p) => `${tool.name}: ${p}`));
    const original = ajv.compile(tool.inputSchema);
    const transformed = ajv.compile(schema);
    const refusedByServer = async (args, why) => {
      const result = await client.callTool({ name: tool.name, arguments: args });
      assert.equal(result.isError, true, `${label} ${tool.name}(${JSON.stringify(args)}): ${why}, the server must refuse it`);
    };
    for (const args of [...calls[tool.name].valid, ...calls[tool.name].invalid]) {
      const sent = encode(tool.inputSchema, args);
      if (original(args)) {
        assert.ok(transformed(sent), `${label} ${tool.name}: ${JSON.stringify(sent)} fails the transformed schema: ${ajv.errorsText(transformed.errors)}`);
        assert.deepEqual(decode(sent), args, `${label} ${tool.name}: the arguments come back as they were`);
      } else if (transformed(sent)) {
        await refusedByServer(decode(sent), 'the input schema forbids it and the transformed one lets it through');
      }
    }
    for (const d of dropped) {
      const args = breaking(tool, d);
      assert.equal(original(args), false, `${tool.name}: ${JSON.stringify(args)} breaks ${d.keyword}`);
      await refusedByServer(args, `${d.parameter}'s ${d.keyword} forbids it`);
      droppedAll.push(d.keyword);
    }
  }
  assert.deepEqual(problems, [], `${label}: the transformed schemas break its rules`);
  const counts = {};
  for (const k of droppedAll) counts[k] = (counts[k] ?? 0) + 1;
  return Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ');
}

test('OpenAI strict function schemas: every input schema, made strict, meets the rules losslessly', async () => {
  const asIs = tools.filter((t) => openaiStrictProblems(t.name, t.inputSchema).length === 0).map((t) => t.name);
  const dropped = await checkTransformation('openai', toOpenAIStrict, openaiStrictProblems, toOpenAIArguments,
    fromOpenAIArguments);
  console.log(`# openai strict: ${asIs.length} of ${tools.length} input schemas as they are, all ${tools.length} ` +
    `once made strict; left to the server: ${dropped}`);
  // The checker is not vacuous: what strict mode refuses, it names.
  assert.ok(openaiStrictProblems('get_prices', tools[0].inputSchema).some((p) => /not required/.test(p)));
  assert.ok(openaiStrictProblems('x', { type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } },
    required: ['a'], additionalProperties: false }).some((p) => /oneOf is not supported/.test(p)));
  assert.ok(openaiStrictProblems('x', { anyOf: [{ type: 'object' }] }).length > 0);
});

test('Gemini function declarations: every input schema, in the OpenAPI subset, meets the rules losslessly', async () => {
  const asIs = tools.filter((t) => geminiProblems(t.name, t.inputSchema).length === 0).map((t) => t.name);
  const dropped = await checkTransformation('gemini', toGemini, geminiProblems, (_, args) => args, (args) => args);
  console.log(`# gemini: ${asIs.length} of ${tools.length} input schemas as they are, all ${tools.length} ` +
    `once transformed; left to the server: ${dropped}`);
  assert.ok(geminiProblems('x', { type: 'object', properties: { a: { $ref: '#/$defs/a' } } })
    .some((p) => /\$ref is not supported/.test(p)));
  assert.ok(geminiProblems('x', { type: 'object', properties: { a: { const: 1 } } }).length > 0);
  assert.ok(geminiProblems('x', { type: ['object', 'null'] }).length > 0);
});
