-- POST /mcp tools/call get_prices, legacy stateless JSON-RPC (the same bytes to our server and to
-- the SDK baseline). No initialize: both serve stateless requests.
wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_prices","arguments":{}}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
