-- The memory benchmark's load: a rotation of GET documents and computed answers, each wrk thread
-- stopping after N responses (wrk -tT ... -- N MARKER). wrk itself runs until -d or SIGINT, so on
-- its Nth response a thread stops and creates the file MARKER-<thread number>: tests/bench/run
-- waits for T such files and sends SIGINT.
local paths = {
    "/v1/prices",
    "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot",
    "/v1/prices/h100-sxm",
    "/v1/gpus/h100-sxm",
    "/v1/sizing?params_b=70&precision=fp8",
    "/v1/compare?gpus=h100-sxm,h200-sxm,b200",
    "/v1/glossary/cost-per-image?lang=fr",
    "/v1/estimate?gpu=a100-80gb-sxm&gpus=8&seconds=720&tier=on_demand&storage_gb=500&egress_gb=20",
    "/v1/methodology",
    "/v1/regions",
    "/readyz",
    "POST /mcp",
}
local mcp_headers = {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["MCP-Protocol-Version"] = "2025-06-18",
}
local mcp_body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"estimate_job_cost",'
    .. '"arguments":{"gpu":"h100-sxm","gpus":2,"hours":10,"tier":"spot"}}}'
local limit = 1000000
local marker = nil
local sent = 0
local threads = 0
local received = 0

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    limit = tonumber(args[1]) or limit
    marker = args[2]
end

function request()
    sent = sent + 1
    local path = paths[(sent % #paths) + 1]
    if path == "POST /mcp" then
        return wrk.format("POST", "/mcp", mcp_headers, mcp_body)
    end
    return wrk.format("GET", path)
end

function response(status, headers, body)
    received = received + 1
    if received == limit then
        if marker then
            io.open(marker .. "-" .. id, "w"):close()
        end
        wrk.thread:stop()
    end
end
