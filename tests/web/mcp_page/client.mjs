// The page script of tests/web/mcp_browser_test.py, bundled with esbuild into client.js. It runs the
// official MCP TypeScript SDK client in the browser against the lowcostgpu server named by
// ?server=http://HOST:PORT (another origin than the page's), and writes what happened into
// <pre id="result"> as JSON, for the test to read from the DOM.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const report = { ok: false, page_origin: window.location.origin, fetches: [], transport_errors: [] };

// The browser's own fetch, recording what the page saw of each request: a cross-origin response
// the page may read has type "cors"; one that CORS refused never arrives (a TypeError).
async function recordingFetch(input, init) {
  const entry = { method: init?.method ?? 'GET', url: String(input instanceof Request ? input.url : input) };
  report.fetches.push(entry);
  try {
    const response = await window.fetch(input, init);
    entry.status = response.status;
    entry.type = response.type;
    return response;
  } catch (error) {
    entry.error = String(error);
    throw error;
  }
}

async function run() {
  const server = new URL(new URLSearchParams(window.location.search).get('server'));
  report.server_origin = server.origin;
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server), { fetch: recordingFetch });
  const client = new Client({ name: 'lowcostgpu-browser-e2e', version: '1.0.0' });
  client.onerror = (error) => report.transport_errors.push(String(error));
  await client.connect(transport);
  report.protocol_version = transport.protocolVersion ?? null;
  report.server_name = client.getServerVersion()?.name ?? null;
  const { tools } = await client.listTools();
  report.tools = tools.map((tool) => tool.name);
  const result = await client.callTool({ name: 'get_methodology', arguments: {} });
  const structured = result.structuredContent;
  report.call = {
    isError: result.isError ?? false,
    structured_is_object: typeof structured === 'object' && structured !== null && !Array.isArray(structured),
    structured_keys: structured ? Object.keys(structured) : [],
    text_blocks: (result.content ?? []).filter((block) => block.type === 'text').length,
  };
  await client.close();
  report.ok = true;
}

run()
  .catch((error) => {
    report.error = String(error?.message ?? error);
  })
  .finally(() => {
    const out = document.getElementById('result');
    out.textContent = JSON.stringify(report);
    out.dataset.done = 'true';
  });
