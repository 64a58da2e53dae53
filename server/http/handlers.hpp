#pragma once

#include "server/http/query.hpp"
#include "server/http/response.hpp"
#include "server/http/router.hpp"
#include "render/resources.hpp"
#include "render/views.hpp"

#include "api/operation.hpp"
#include "mcp/server.hpp"

#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace lcg::http {

// What a route handler receives: the request, the snapshot in force, the path segments captured by
// the route's {placeholders}, and the query parameters (a handler takes those it knows; the router
// refuses any left over), and the format negotiated for the response with the path it names
// without its suffix.
struct route_input {
    request const& req;
    request_context const& ctx;
    std::vector<std::string_view> captures;
    query_params& query;
    render::format format = render::format::json;
    render::format_set formats{};     // every format of the route
    std::optional<render::resource> kind{};  // of the published document the route serves (an operation's without arguments), if any
    std::string_view path{};          // "/v1/prices" for "/v1/prices.md?x=1"
    std::string_view query_string{};  // "?x=1", or empty
    locale::language lang = locale::language::en;  // from `lang` or Accept-Language (operations: their answer's)
    std::string form{};               // an HTML calculator's form, shown above the computed result
    // Set by a handler whose answer needs a read off the event loop; the response it returns then
    // is ignored. The router adds what it adds to every answer when the response is sent.
    deferred later{};

    snapshot::snapshot const& snap() const { return *ctx.snapshot; }
};

// The pre-rendered document of the route's kind named `name` (a week, a model's id), in the
// negotiated format and the request's language, or 404: document_at its path.
response published_document(route_input& in, std::string_view name = {});

// The pre-rendered document of `path` (plus `query`, "?lang=en") in the negotiated format and in
// the request's language, or 404. A document written in one language only (the audit inputs, the
// signatures, the keys) is served as it is. Content-Language says which was served. A document
// named by an alias of its week (latest, current) changes with the next publication: never immutable.
response document_at(route_input& in, std::string const& path, std::string_view query = {}, bool named_by_alias = false);

// A body computed for this request from its JSON document `doc`, written by `v` in the negotiated
// format and the request's language; `last_modified` is that of the data it was computed from.
response serve_computed(route_input& in, render::view const& v, boost::json::object const& doc,
                        std::optional<pricing::instant> last_modified);
// The same from a document already written as JSON text (render::estimate_text): served as it is,
// and parsed only for the other formats.
response serve_computed(route_input& in, render::view const& v, std::string json_text,
                        std::optional<pricing::instant> last_modified);

using handler = response (*)(route_input& in);

// The published sheet named by the {week} segment ("2026-W48", or latest or current), or the
// response that explains why there is none.
pricing::outcome<pricing::price_sheet const*, response> published_week(route_input& in);
// Whether the {week} segment is "latest" or "current": a sheet that changes with the next publication.
bool names_week_alias(std::string_view segment);

// Handlers, grouped by area; the route table in router.cpp is the one place that maps paths to them.
response handle_healthz(route_input& in);
response handle_readyz(route_input& in);
response handle_metrics(route_input& in);
response handle_price_of(route_input& in);
response handle_sheets(route_input& in);
response handle_sheet(route_input& in);
response handle_observations(route_input& in);  // a week's inputs (inputs_handlers.cpp)
response handle_raw_inputs(route_input& in);
response handle_raw_file(route_input& in);
response handle_regions(route_input& in);
response handle_sources(route_input& in);
response handle_sheets_feed(route_input& in);      // /v1/sheets.atom
response handle_history_chart(route_input& in);    // /v1/prices/{gpu}/history.svg and sparkline.svg
response handle_signed_bytes(route_input& in);    // /v1/sheets/{week}/signed.txt: what the signature covers
response handle_signature(route_input& in);       // /v1/sheets/{week}/signature.txt (base64), signed.txt.sig (signify), signed.note
response handle_week_description(route_input& in);  // /v1/sheets/{week}/datapackage.json and csv-metadata.json
response handle_signed_catalog(route_input& in);     // /v1/catalog: the catalog document as signed
response handle_catalog_signature(route_input& in);  // /v1/catalog/signature: its signature
response handle_keys(route_input& in);            // /.well-known/lowcostgpu-keys.json
response handle_key_file(route_input& in);        // /.well-known/lowcostgpu-keys/{key_id}.pem and .pub (signify)
response handle_log(route_input& in);             // /v1/log: where the log is, its keys, its entries
response handle_log_checkpoint(route_input& in);  // /v1/log/checkpoint: the newest signed checkpoint
response handle_log_version(route_input& in);     // /v1/log/entries/{i}/signed.txt|signature.txt
response handle_log_tile(route_input& in);        // /v1/log/tile/…: C2SP tlog-tiles (log_handlers.cpp)
response handle_index(route_input& in);           // "/"
response handle_llms_txt(route_input& in);        // /llms.txt, /.well-known/llms.txt
response handle_llms_full_txt(route_input& in);   // /llms-full.txt, /.well-known/llms-full.txt
response handle_openapi(route_input& in);         // /openapi.json
response handle_api_catalog(route_input& in);     // /.well-known/api-catalog: RFC 9727
response handle_mcp(route_input& in);             // POST and OPTIONS /mcp (mcp_handler.cpp)
response handle_server_card(route_input& in);     // /mcp/server-card: the card of SEP-2127
response handle_legacy_server_card(route_input& in);  // /.well-known/mcp/server-card.json, /.well-known/mcp.json

// A refusal of POST /mcp by the transport (a body larger than mcp::max_message_bytes, a wrong
// Content-Type or Accept): a JSON-RPC error without id, which is what MCP clients read.
response mcp_transport_refusal(request const& req, beast_http::status status, std::string const& message);

// The HTTP status of the MCP core's answer to a POST /mcp: the one place that maps its errors to
// statuses (400 for a bad message, header or version, 404 for a method 2026-07-28 lacks, 413, 429,
// 500; 202 when nothing is answered; 200 otherwise, a batch's answers included).
beast_http::status mcp_status(mcp::reply const& answer);

// The catalog's GPU ids, for the `valid_ids` of a refused GPU.
boost::json::array catalog_ids(route_input& in);

// Every route of the operation registry (operation_handler.cpp).
response handle_operation(route_input& in, api::operation const& op);
// A query string that cannot be read, refused on the page of `op`'s calculator (under its blank form,
// with the problem's status) when HTML was asked for, else as a problem; `in` holds no parameter.
response refuse_unread_query(route_input& in, api::operation const& op, api::failure const& f);

}
