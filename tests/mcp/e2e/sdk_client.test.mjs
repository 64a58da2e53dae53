// The official TypeScript SDK client against a real lowcostgpu, over Streamable HTTP (`serve`) and
// over stdio (`mcp`): every tool with valid and invalid arguments, each structuredContent checked
// against the tool's outputSchema with ajv (JSON Schema 2020-12), the resources, prompts and
// completions, the transport's HTTP checks, the modern (2026-07-28) era over raw HTTP, and the
// same document from a tool as from its HTTP route, the server card of the SEP-2127 draft and
// deploy/server.json against the JSON Schemas of schemas/ (our reading of the two drafts), and the
// earlier drafts' card against tools/list.
//
// Run by tests/mcp/e2e/run, which starts the server and sets LCG_MCP_BASE (http://127.0.0.1:PORT),
// LCG_BINARY and LCG_MCP_DATABASE_URL (the reader role on a copy of the sample database).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import http from 'node:http';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';

import { calls, toolNames } from './tool_calls.mjs';

const base = process.env.LCG_MCP_BASE;
const binary = process.env.LCG_BINARY;
const databaseUrl = process.env.LCG_MCP_DATABASE_URL;
if (!base || !binary || !databaseUrl)
  throw new Error('LCG_MCP_BASE, LCG_BINARY and LCG_MCP_DATABASE_URL must be set: run tests/mcp/e2e/run sdk');
const mcpUrl = `${base}/mcp`;

const ajv = new Ajv2020({ allErrors: true, strict: false });

async function checkEveryTool(client, label) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), toolNames, `${label}: the tools of the registry, in order`);
  const validators = {};
  for (const tool of tools) {
    assert.ok(tool.title && tool.description, `${tool.name}: title and description`);
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.outputSchema.type, 'object');
    assert.equal(tool.annotations.readOnlyHint, true);
    assert.equal(tool.annotations.idempotentHint, true);
    assert.equal(tool.annotations.openWorldHint, false);
    validators[tool.name] = ajv.compile(tool.outputSchema);
  }
  let checked = 0;
  for (const name of toolNames) {
    for (const args of calls[name].valid) {
      const result = await client.callTool({ name, arguments: args });
      const what = `${label} ${name}(${JSON.stringify(args)})`;
      assert.equal(result.isError, false, `${what}: ${result.content?.[0]?.text}`);
      // Only a result past about 4,000 tokens (16,000 bytes) of a tool with filters adds a second
      // block, naming the arguments that narrow it.
      assert.ok(result.content.length === 1 || result.content.length === 2, `${what}: one or two text blocks`);
      if (result.content.length === 2) {
        assert.ok(Buffer.byteLength(result.content[0].text) > 16000, `${what}: a second block on a short result`);
        assert.match(result.content[1].text, /^This result is about \d+ tokens\. To ask for less/);
      }
      assert.equal(result.content[0].type, 'text');
      assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent,
        `${what}: the text block is the structured content, serialized (clients that show the model only text)`);
      const valid = validators[name](result.structuredContent);
      assert.ok(valid, `${what}: structuredContent fails its outputSchema: ${ajv.errorsText(validators[name].errors)}`);
      checked++;
    }
    for (const args of calls[name].invalid) {
      const result = await client.callTool({ name, arguments: args });
      const what = `${label} ${name}(${JSON.stringify(args)})`;
      assert.equal(result.isError, true, `${what} must be refused`);
      assert.equal(result.structuredContent, undefined, `${what}: no structured content on error`);
      assert.match(result.content[0].text, /accepted|required|not both|no glossary entry|is more than|takes no parameters|is expected|needs at least/, what);
      checked++;
    }
  }
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }),
    (e) => e instanceof McpError && e.code === -32602, `${label}: an unknown tool is a JSON-RPC error -32602`);
  return checked;
}

function raw(method, path, { headers = {}, body } = {}) {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ method, host: url.hostname, port: url.port, path: url.pathname + url.search,
      headers: { Host: url.host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const jsonHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'sdk-e2e', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {} };

let httpClient;

before(async () => {
  httpClient = new Client({ name: 'lowcostgpu-e2e', version: '1.0.0' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
});

after(async () => {
  await httpClient?.close();
});

test('Streamable HTTP: initialize negotiates 2025-11-25 and names the server', () => {
  assert.equal(httpClient.getServerVersion().name, 'lowcostgpu');
  const caps = httpClient.getServerCapabilities();
  for (const c of ['tools', 'resources', 'prompts', 'completions', 'logging']) assert.ok(caps[c], c);
});

test('Streamable HTTP: every tool, valid and invalid, structuredContent valid against outputSchema', async () => {
  const checked = await checkEveryTool(httpClient, 'http');
  console.log(`# http: ${checked} tool calls checked`);
});

test('each tool and its HTTP route give the same document, through the SDK', async () => {
  const cases = [
    ['estimate_job_cost', '/v1/estimate', { gpu: 'h100-sxm', gpus: 2, hours: 10.5, storage_gb: 250, egress_gb: 12.5,
      tokens_per_second: 1500 }],
    ['estimate_job_cost', '/v1/estimate', { gpu: 'h100-sxm', seconds: 720 }],
    ['estimate_job_cost', '/v1/estimate', { gpu: 'h100-sxm', seconds: 720, week: 'latest' }],
    ['compare_gpus', '/v1/compare', { gpus: ['h100-sxm', 'l40s'], week: 'current' }],
    ['estimate_job_cost', '/v1/estimate', { gpu: 'a100-80gb-sxm', gpus: 8, hours: 72, tier: 'spot', storage_gb: 500,
      storage_hours: 100, ingress_gb: 40 }],
    ['get_prices', '/v1/prices', { vendor: 'amd', tier: 'spot', sort: 'price' }],
    ['get_history', '/v1/history', { tier: 'spot' }],
    ['verify_quote', '/v1/quotes/verify', { gpu: 'h100-sxm', tier: 'spot', price: 0.9 }],
    ['transfer_time', '/v1/transfer', { gb: 80 }],
    ['rent_vs_buy', '/v1/rent-vs-buy', { gpu: 'mi300x', gpus: 2, purchase_price: 250000, power_watts: 10200, electricity_price: 0.12, hosting_per_month: 1500, utilisation: 35.5, months: 48 }],
    ['find_cheapest', '/v1/cheapest', { params_b: 70, precision: 'fp8', hours: 10 }],
    ['get_inventory', '/v1/inventory', { gpu: 'h100-sxm', region: 'eu-paris-1' }],
    ['compare_gpus', '/v1/compare', { gpus: ['h100-sxm', 'mi300x'] }],
  ];
  for (const [name, path, args] of cases) {
    const tool = (await httpClient.callTool({ name, arguments: args })).structuredContent;
    const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
    const res = await raw('GET', `${path}?${query}`, { headers: { Accept: 'application/json' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(tool, JSON.parse(res.text), `${name} is GET ${path}`);
  }
});

// The schemas of schemas/: written by us from the drafts' field lists (each says so in $comment).
const schemaOf = (name) => JSON.parse(readFileSync(new URL(`schemas/${name}`, import.meta.url), 'utf8'));
const strictAjv = addFormats(new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false }));
const validCard = strictAjv.compile(schemaOf('server-card.schema.json'));
const validRegistryEntry = strictAjv.compile(schemaOf('registry-server.schema.json'));

test('the server card at /mcp/server-card validates against the SEP-2127 card schema, served as the draft says', async () => {
  const res = await raw('GET', '/mcp/server-card', { headers: { Accept: 'application/mcp-server-card+json' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['content-type'], 'application/mcp-server-card+json');
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.match(res.headers['access-control-expose-headers'], /\bETag\b/);
  assert.ok(res.headers.etag, 'an ETag');
  const card = JSON.parse(res.text);
  assert.ok(validCard(card), `the card fails its schema: ${strictAjv.errorsText(validCard.errors)}`);
  assert.equal(card.remotes[0].url, `${base}/mcp`);
  assert.equal(card.tools, undefined, 'no primitives in a card');
  // What the card says agrees with what the server says once connected.
  const info = httpClient.getServerVersion();
  assert.equal(card.version, info.version);
  assert.equal(card.title, info.title);
  const revalidated = await raw('GET', '/mcp/server-card', { headers: { 'If-None-Match': res.headers.etag } });
  assert.equal(revalidated.status, 304);
  // The schema is not vacuous: what the draft forbids fails it.
  for (const broken of [{ ...card, name: 'no-slash' }, { ...card, description: 'x'.repeat(101) },
    { ...card, $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server-card.schema.json' },
    { ...card, remotes: [{ type: 'streamable-http', url: '/mcp' }] }, { ...card, version: '^1.0.0' }]) {
    assert.equal(validCard(broken), false, JSON.stringify(broken));
  }
});

test('deploy/server.json validates against the official registry\'s server.json schema, and names the card\'s server', async () => {
  const entry = JSON.parse(readFileSync(new URL('../../../deploy/server.json', import.meta.url), 'utf8'));
  assert.ok(validRegistryEntry(entry), `deploy/server.json fails its schema: ${strictAjv.errorsText(validRegistryEntry.errors)}`);
  assert.ok(entry.remotes.length >= 1, 'a remote');
  assert.ok(entry.packages.some((p) => p.transport.type === 'stdio'), 'a package for the local (stdio) mode');
  const card = JSON.parse((await raw('GET', '/mcp/server-card')).text);
  for (const key of ['name', 'version', 'title', 'description']) assert.equal(entry[key], card[key], key);
  for (const broken of [{ ...entry, packages: [{ ...entry.packages[0], registryType: 'deb' }] },
    { ...entry, packages: [{ ...entry.packages[0], identifier: 'registry.example.com/lowcostgpu:0.1.0' }] },
    { ...entry, remotes: [{ type: 'stdio' }] }, { ...entry, description: 'x'.repeat(101) }]) {
    assert.equal(validRegistryEntry(broken), false, JSON.stringify(broken));
  }
});

test('the earlier drafts\' server card lists exactly the tools of tools/list, with the same schemas', async () => {
  const res = await raw('GET', '/.well-known/mcp/server-card.json', { headers: { Accept: 'application/json' } });
  assert.equal(res.status, 200);
  const card = JSON.parse(res.text);
  const { tools } = await httpClient.listTools();
  assert.deepEqual(card.tools.map((t) => t.name), tools.map((t) => t.name));
  for (const tool of tools) {
    const described = card.tools.find((t) => t.name === tool.name);
    assert.deepEqual(described.inputSchema, tool.inputSchema, tool.name);
    assert.deepEqual(described.outputSchema, tool.outputSchema, tool.name);
  }
  assert.equal(card.transport.endpoint, '/mcp');
  assert.ok(card.protocolVersions.includes('2025-11-25'));
  const alias = await raw('GET', '/.well-known/mcp.json', { headers: { Accept: 'application/json' } });
  assert.deepEqual(JSON.parse(alias.text), card);
});

test('Streamable HTTP: resources in Markdown and the HTTP API JSON, templates, prompts, completion', async () => {
  // Every page, by the SDK's cursor: the five documents first, then each glossary entry, each model's
  // history and each sheet, at most 50 to a page.
  const first = await httpClient.listResources();
  assert.deepEqual(first.resources.slice(0, 5).map((r) => r.uri),
    ['lowcostgpu://prices', 'lowcostgpu://gpus', 'lowcostgpu://methodology', 'lowcostgpu://sources',
     'lowcostgpu://glossary']);
  const resources = [...first.resources];
  for (let cursor = first.nextCursor, pages = 1; cursor && pages < 20; pages++) {
    const page = await httpClient.listResources({ cursor });
    assert.ok(page.resources.length <= 50);
    resources.push(...page.resources);
    cursor = page.nextCursor;
  }
  const uris = resources.map((r) => r.uri);
  assert.equal(new Set(uris).size, uris.length, 'no resource listed twice');
  for (const uri of ['lowcostgpu://glossary/gpu-hour', 'lowcostgpu://prices/h100-sxm/history'])
    assert.ok(uris.includes(uri), uri);
  assert.ok(uris.some((u) => /^lowcostgpu:\/\/sheets\/\d{4}-W\d{2}$/.test(u)), 'a sheet is listed');
  await assert.rejects(httpClient.listResources({ cursor: 'not-a-cursor' }), /unknown cursor/);
  const paths = { 'lowcostgpu://prices': '/v1/prices', 'lowcostgpu://gpus': '/v1/gpus',
    'lowcostgpu://methodology': '/v1/methodology', 'lowcostgpu://sources': '/v1/sources',
    'lowcostgpu://glossary': '/v1/glossary?lang=en',
    'lowcostgpu://gpus/h100-sxm': '/v1/gpus/h100-sxm', 'lowcostgpu://glossary/gpu-hour?lang=fr': '/v1/glossary/gpu-hour?lang=fr' };
  for (const [uri, path] of Object.entries(paths)) {
    const { contents } = await httpClient.readResource({ uri });
    assert.equal(contents[0].mimeType, 'text/markdown', uri);
    assert.ok(contents[0].text.length > 50, uri);
    assert.equal(contents[1].mimeType, 'application/json', uri);
    const res = await raw('GET', path, { headers: { Accept: 'application/json' } });
    assert.deepEqual(JSON.parse(contents[1].text), JSON.parse(res.text), `${uri} is ${path}`);
  }
  const { resourceTemplates } = await httpClient.listResourceTemplates();
  assert.equal(resourceTemplates.length, 4);
  const history = await httpClient.readResource({ uri: 'lowcostgpu://prices/h100-sxm/history' });
  const historyJson = await raw('GET', '/v1/prices/h100-sxm/history', { headers: { Accept: 'application/json' } });
  assert.deepEqual(JSON.parse(history.contents[1].text), JSON.parse(historyJson.text), 'the history resource is the route');
  const weeks = await httpClient.complete({ ref: { type: 'ref/resource', uri: 'lowcostgpu://sheets/{week}' },
    argument: { name: 'week', value: '' } });
  assert.ok(weeks.completion.values.length >= 2);
  const sheet = await httpClient.readResource({ uri: `lowcostgpu://sheets/${weeks.completion.values[1]}` });
  assert.match(sheet.contents[0].text, /^# GPU price sheet /);
  const ids = await httpClient.complete({ ref: { type: 'ref/resource', uri: 'lowcostgpu://gpus/{id}' },
    argument: { name: 'id', value: 'h1' } });
  assert.ok(ids.completion.values.includes('h100-sxm'));
  await assert.rejects(httpClient.readResource({ uri: 'lowcostgpu://gpus/h999' }), (e) => e.code === -32002);

  const { prompts } = await httpClient.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['choose_gpu', 'estimate_training_run', 'explain_pricing']);
  const prompt = await httpClient.getPrompt({ name: 'estimate_training_run', arguments: { gpu: 'h100-sxm', hours: '24' } });
  assert.match(prompt.messages[0].content.text, /estimate_job_cost/);
  await assert.rejects(httpClient.getPrompt({ name: 'estimate_training_run', arguments: { gpu: 'h100-sxm' } }),
    (e) => e.code === -32602);
  await httpClient.ping();
  await httpClient.setLoggingLevel('warning');
});

test('HTTP transport checks: 405, 415, 400, 403, 413, 202', async () => {
  for (const method of ['GET', 'DELETE']) {
    const res = await raw(method, '/mcp');
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.allow, 'POST, OPTIONS');
  }
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  assert.equal((await raw('POST', '/mcp', { headers: { 'Content-Type': 'text/plain' }, body: ping })).status, 415);
  assert.equal((await raw('POST', '/mcp', { headers: { ...jsonHeaders, Accept: 'text/html' }, body: ping })).status, 400);
  assert.equal((await raw('POST', '/mcp', { headers: { ...jsonHeaders, Host: 'evil.example.com' }, body: ping })).status, 403);
  assert.equal((await raw('POST', '/mcp', { headers: { ...jsonHeaders, Origin: 'http://evil.example.com' }, body: ping })).status, 403);
  assert.equal((await raw('POST', '/mcp', { headers: { ...jsonHeaders, Origin: 'http://localhost:6274' }, body: ping })).status, 200);
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
  assert.equal((await raw('POST', '/mcp', { headers: jsonHeaders, body: big })).status, 413);
  const note = await raw('POST', '/mcp', { headers: jsonHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(note.status, 202);
  assert.equal(note.text, '');
  // Batches exist in 2025-03-26 only, which a request without MCP-Protocol-Version is taken to be.
  const ping2 = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
  const batch = await raw('POST', '/mcp', { headers: jsonHeaders, body: `[${ping},${ping2}]` });
  assert.equal(batch.status, 200);
  assert.deepEqual(JSON.parse(batch.text).map((r) => r.id), [1, 2]);
  const refused = await raw('POST', '/mcp', { headers: { ...jsonHeaders, 'MCP-Protocol-Version': '2025-06-18' },
    body: `[${ping},${ping2}]` });
  assert.equal(refused.status, 400);
  assert.equal(JSON.parse(refused.text).error.code, -32600);
});

test('modern 2026-07-28 over HTTP: discover, headers checked, 404 for an unknown method', async () => {
  const post = (method, params, headers) => raw('POST', '/mcp', { headers: { ...jsonHeaders, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: modernMeta } }) });
  const modern = { 'MCP-Protocol-Version': '2026-07-28' };
  const discover = await post('server/discover', {}, { ...modern, 'Mcp-Method': 'server/discover' });
  assert.equal(discover.status, 200);
  const result = JSON.parse(discover.text).result;
  assert.equal(result.resultType, 'complete');
  assert.equal(result.cacheScope, 'public');
  assert.deepEqual(result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  const call = await post('tools/call', { name: 'get_prices', arguments: { gpu: 'h100-sxm' } },
    { ...modern, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_prices' });
  assert.equal(call.status, 200);
  assert.equal(JSON.parse(call.text).result.structuredContent.prices[0].on_demand, '1.680');
  const missing = await post('tools/list', {}, modern);
  assert.equal(missing.status, 400);
  assert.equal(JSON.parse(missing.text).error.code, -32020);
  const wrongName = await post('tools/call', { name: 'get_prices' }, { ...modern, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_gpu' });
  assert.equal(JSON.parse(wrongName.text).error.code, -32020);
  const unknown = await post('tasks/list', {}, { ...modern, 'Mcp-Method': 'tasks/list' });
  assert.equal(unknown.status, 404);
  assert.equal(JSON.parse(unknown.text).error.code, -32601);
  const version = await post('tools/list', {}, { 'MCP-Protocol-Version': '2031-01-01', 'Mcp-Method': 'tools/list' });
  assert.equal(version.status, 400);
  assert.equal(JSON.parse(version.text).error.code, -32022);
});

test('stdio: the SDK client over `lowcostgpu mcp`, every tool and a resource', async () => {
  const transport = new StdioClientTransport({ command: binary, args: ['mcp', '--database-url', databaseUrl], stderr: 'pipe' });
  const client = new Client({ name: 'lowcostgpu-e2e-stdio', version: '1.0.0' });
  await client.connect(transport);
  try {
    const checked = await checkEveryTool(client, 'stdio');
    console.log(`# stdio: ${checked} tool calls checked`);
    const { contents } = await client.readResource({ uri: 'lowcostgpu://prices' });
    assert.match(contents[0].text, /h100-sxm\.md\) \| 2\.400 \|[^\n]*\| 1\.680 \|/);
  } finally {
    await client.close();
  }
});

test('stdio: protocol on stdout only, logs on stderr, exit 0 at end of input', () => {
  const input = [
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    '',
    '{not json',
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: modernMeta } }),
  ].join('\n') + '\n';
  const run = spawnSync(binary, ['mcp', '--database-url', databaseUrl], { input, encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.id), [1, null, 2]);
  assert.equal(lines[0].result.protocolVersion, '2025-06-18');
  assert.equal(lines[1].error.code, -32700);
  assert.equal(lines[2].result.resultType, 'complete');
  assert.match(run.stderr, /lowcostgpu mcp/);
});
