// Clients generated from the OpenAPI description a real lowcostgpu serves (issue 28, item 2):
// openapi-typescript (types, used with openapi-fetch) and @hey-api/openapi-ts (an SDK) generate from
// /openapi.json, tsc type-checks the two programs of openapi_clients/ against what they generated
// (strict), esbuild bundles them, and each calls five routes of the server and checks the answers.
// Before that, every example of the description is validated against its schema with ajv.
//
// Run by tests/mcp/e2e/run openapi-clients, which starts the server, sets LCG_MCP_BASE and gives
// this test a scratch folder (LCG_CLIENTS_WORK).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as esbuild from 'esbuild';

const base = process.env.LCG_MCP_BASE;
const work = process.env.LCG_CLIENTS_WORK;
if (!base || !work) throw new Error('LCG_MCP_BASE and LCG_CLIENTS_WORK must be set: run tests/mcp/e2e/run openapi-clients');
const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(here, 'node_modules');
const node = process.execPath;

let spec;
const generated = path.join(work, 'generated');
const clients = path.join(work, 'clients');

const timed = (what, f) => {
  const t0 = performance.now();
  const out = f();
  console.log(`# ${what}: ${Math.round(performance.now() - t0)} ms`);
  return out;
};

before(async () => {
  const res = await fetch(`${base}/openapi.json`);
  assert.equal(res.status, 200);
  spec = await res.json();
  mkdirSync(generated, { recursive: true });
  writeFileSync(path.join(work, 'openapi.json'), JSON.stringify(spec));
  // The programs import openapi-fetch and the generated code from the scratch folder.
  symlinkSync(modules, path.join(work, 'node_modules'));
  cpSync(path.join(here, 'openapi_clients'), clients, { recursive: true });
});

// Every example in the description, with the schema it must validate against and where it is.
function examples(doc) {
  const out = [];
  const walk = (v, pointer) => {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, `${pointer}/${i}`)); return; }
    const schema = v.schema;
    if (schema && typeof schema === 'object') {  // a media type or a parameter
      if ('example' in v) out.push({ at: `${pointer}/example`, schema: `${pointer}/schema`, value: v.example });
      for (const [name, e] of Object.entries(v.examples ?? {}))
        if ('value' in e) out.push({ at: `${pointer}/examples/${name}`, schema: `${pointer}/schema`, value: e.value });
    }
    const isSchema = /\/components\/schemas\/[^/]+|\/schema(\/|$)/.test(pointer) && !pointer.endsWith('/properties');
    if (isSchema) {
      if (Array.isArray(v.examples))
        v.examples.forEach((e, i) => out.push({ at: `${pointer}/examples/${i}`, schema: pointer, value: e }));
      if ('example' in v && !schema) out.push({ at: `${pointer}/example`, schema: pointer, value: v.example });
    }
    for (const [k, x] of Object.entries(v)) walk(x, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  };
  walk(doc, '');
  return out;
}

test('every example of the served OpenAPI description validates against its schema (ajv, JSON Schema 2020-12)', () => {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, validateSchema: false }));
  ajv.addSchema(spec, 'openapi.json');
  const all = examples(spec);
  const bad = [];
  for (const e of all) {
    const validate = ajv.compile({ $ref: `openapi.json#${e.schema}` });
    if (!validate(e.value)) bad.push(`${e.at}: ${ajv.errorsText(validate.errors)}`);
  }
  console.log(`# ${all.length} examples validated`);
  assert.deepEqual(bad, []);
  assert.ok(all.length >= 30, `only ${all.length} examples found: the walk missed some`);
  // Not vacuous: the sheet's example without a rate fails.
  const sheet = all.find((e) => e.at === '/paths/~1v1~1prices/get/responses/200/content/application~1json/example');
  assert.ok(sheet, 'the example of /v1/prices');
  const broken = structuredClone(sheet.value);
  delete broken.prices[0].on_demand;
  assert.equal(ajv.compile({ $ref: `openapi.json#${sheet.schema}` })(broken), false);
});

test('openapi-typescript and @hey-api/openapi-ts generate clients, which tsc type-checks (strict)', () => {
  timed('openapi-typescript', () => execFileSync(node, [path.join(modules, 'openapi-typescript/bin/cli.js'),
    path.join(work, 'openapi.json'), '-o', path.join(generated, 'openapi-typescript.d.ts')], { stdio: 'pipe' }));
  timed('@hey-api/openapi-ts', () => execFileSync(node, [path.join(modules, '@hey-api/openapi-ts/bin/run.js'),
    '-i', path.join(work, 'openapi.json'), '-o', path.join(generated, 'hey-api')], { stdio: 'pipe', cwd: work, env: { ...process.env, NO_COLOR: '1' } }));
  assert.ok(readdirSync(path.join(generated, 'hey-api')).includes('sdk.gen.ts'));
  try {
    timed('tsc', () => execFileSync(node, [path.join(modules, 'typescript/bin/tsc'), '-p', path.join(clients, 'tsconfig.json')],
      { stdio: 'pipe', encoding: 'utf8' }));
  } catch (e) {
    assert.fail(`tsc: ${e.stdout}${e.stderr}`);
  }
});

async function bundleAndRun(name) {
  const outfile = path.join(work, `${name}.mjs`);
  await esbuild.build({ entryPoints: [path.join(clients, `${name}.ts`)], bundle: true, platform: 'node', format: 'esm',
    target: 'node22', outfile, logLevel: 'error' });
  const { run } = await import(pathToFileURL(outfile).href);
  return run(base);
}

test('the openapi-typescript client (openapi-fetch) calls five routes and gets the real answers', async () => {
  const checks = await bundleAndRun('openapi_typescript');
  console.log(`# openapi-typescript: ${checks} checks`);
  assert.ok(checks >= 5);
});

test('the @hey-api/openapi-ts client calls five routes and gets the real answers', async () => {
  const checks = await bundleAndRun('hey_api');
  console.log(`# hey-api: ${checks} checks`);
  assert.ok(checks >= 5);
});
