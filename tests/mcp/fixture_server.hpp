#pragma once

// The MCP core over the HTTP tests' fixture snapshot (tests/http/fixture.hpp): one synthetic data
// set for both faces, so an MCP answer can be compared with the HTTP document of the same question.
#include "server/mcp_bridge/snapshot_view.hpp"

#include "../http/fixture.hpp"

#include "mcp/server.hpp"

#include <memory>

namespace lcg::testing {

inline std::shared_ptr<const api::data_view> fixture_view()
{
    static auto const view = std::make_shared<const mcp_bridge::snapshot_view>(fixture_snapshot());
    return view;
}

inline mcp::server const& fixture_mcp_server()
{
    static mcp::server const s(fixture_view(), {"lowcostgpu", "LowCostGPU pricing", "test"});
    return s;
}

}
