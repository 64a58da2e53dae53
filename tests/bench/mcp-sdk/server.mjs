// Baseline for tests/bench/run: the official MCP TypeScript SDK serving the same `get_prices` tool,
// stateless, JSON responses (no SSE), the way the SDK's own stateless example does it: a fresh
// McpServer and StreamableHTTPServerTransport per request (the SDK refuses to reuse a stateless
// transport). Plain node:http in front, so the figure is the SDK's and not a web framework's.
//
// Usage: node server.mjs PORT RESULT.json
//   RESULT.json is the exact `result` our server returns for tools/call get_prices; the tool
//   handler returns it unchanged.
import http from 'node:http';
import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

const [port, resultPath] = process.argv.slice(2);
if (!port || !resultPath) {
    console.error('usage: node server.mjs PORT RESULT.json');
    process.exit(2);
}
const result = JSON.parse(fs.readFileSync(resultPath, 'utf8'));

function makeServer() {
    const server = new McpServer({ name: 'lowcostgpu-bench-baseline', version: '1.0.0' });
    server.registerTool(
        'get_prices',
        {
            title: 'Current GPU prices',
            description: "The price sheet in effect: per-GPU hourly on-demand, spot and reserved rates.",
            inputSchema: {
                gpu: z.string().optional(),
                vendor: z.string().optional(),
                architecture: z.string().optional(),
                min_vram_gb: z.number().optional(),
                max_price: z.string().optional(),
                tier: z.enum(['on_demand', 'spot', 'reserved']).optional(),
                sort: z.string().optional(),
            },
            annotations: { readOnlyHint: true, openWorldHint: false },
        },
        async () => result,
    );
    return server;
}

function reply(res, status, body) {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

const httpServer = http.createServer((req, res) => {
    if (req.url !== '/mcp')
        return reply(res, 404, { error: 'not found' });
    if (req.method !== 'POST')
        return reply(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
        let body;
        try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
            return reply(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
        }
        const server = makeServer();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on('close', () => {
            transport.close();
            server.close();
        });
        try {
            await server.connect(transport);
            await transport.handleRequest(req, res, body);
        } catch (error) {
            console.error('error handling MCP request:', error);
            if (!res.headersSent)
                reply(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
        }
    });
});
httpServer.keepAliveTimeout = 65_000;
httpServer.listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/mcp`));
