#pragma once

#include "api/data_view.hpp"
#include "mcp/failure.hpp"

#include <boost/json/array.hpp>

#include <optional>
#include <string>
#include <string_view>

// The resources: the price sheet, the catalog, the methodology and the glossary, and templates for
// one GPU model, one glossary entry and one weekly sheet. A read answers two contents for the URI:
// first Markdown (text/markdown, short, for an assistant to read), then the JSON document the HTTP
// API serves at the matching path (application/json, the same bytes), when there is one. Glossary
// URIs take "?lang=fr" (English by default).
namespace lcg::mcp {

// The five documents every instance has (completion checks a URI against them).
boost::json::array const& resource_list();
boost::json::array const& resource_templates();

// One page of resources/list: the five documents, then one resource per glossary entry (in file
// order), per model's price history (in catalog order) and per published sheet (newest first), a
// list that grows with the glossary, the catalog and every week. At most rules::mcp_page_size
// from `cursor` (a previous page's nextCursor; none: the first page), with "nextCursor" when more
// follow. A cursor this server did not give, or past the end, is -32602.
result_or_failure<boost::json::object> resources_page(api::data_view const& data, std::optional<std::string_view> cursor);

// The contents of `uri`, or -32002 / -32602 (as `modern` says) when nothing is there.
result_or_failure<boost::json::array> read_resource(std::string_view uri, api::data_view const& data, bool modern);

// The URI as resources/list and the templates spell the resource `uri` names ("lowcostgpu://gpus/H100
// SXM" is lowcostgpu://gpus/h100-sxm), which every spelling of it shares; none when it names none.
std::optional<std::string> canonical_uri(std::string_view uri, api::data_view const& data);

// The weeks of the published sheets, newest first ("2026-W49").
std::vector<std::string> published_weeks(api::data_view const& data);

}
