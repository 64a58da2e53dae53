// The OpenAPI description lists exactly the routes of the table, each with the formats it offers,
// so a new route cannot be forgotten in it.
#include "fixture.hpp"

#include "render/format.hpp"

#include "api/operation.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace lcg;
using namespace lcg::testing;

namespace {

boost::json::object openapi()
{
    auto const doc = fixture_snapshot()->find_document("/openapi.json");
    REQUIRE(doc);
    return boost::json::parse(doc->body).as_object();
}

}

TEST_CASE("the OpenAPI paths are the route table's patterns")
{
    auto const spec = openapi();
    CHECK(spec.at("openapi").as_string() == "3.1.0");
    std::set<std::string> documented, routed;
    for (auto const& [path, item] : spec.at("paths").as_object())
        documented.insert(std::string(path));
    for (auto const& r : http::route_list())
        routed.insert(std::string(r.pattern));
    for (auto const& p : routed) {
        CAPTURE(p);
        CHECK_MESSAGE(documented.contains(p), "describe the route in server/http/openapi.json");
    }
    for (auto const& p : documented) {
        CAPTURE(p);
        CHECK_MESSAGE(routed.contains(p), "server/http/openapi.json describes a path the router does not serve");
    }
}

TEST_CASE("each route's methods are the operations of its path")
{
    auto const spec = openapi();
    auto const& paths = spec.at("paths").as_object();
    for (auto const& r : http::route_list()) {
        CAPTURE(r.pattern);
        auto const* item = paths.if_contains(r.pattern);
        if (!item)
            continue;  // reported above
        std::set<std::string> documented, allowed;
        for (auto const& [method, op] : item->as_object())
            documented.insert(std::string(method));
        std::string_view methods = r.methods;
        while (!methods.empty()) {
            auto const comma = methods.find(',');
            auto method = methods.substr(0, comma);
            methods = comma == std::string_view::npos ? std::string_view{} : methods.substr(comma + 1);
            while (method.starts_with(' '))
                method.remove_prefix(1);
            std::string lower;
            for (char c : method)
                lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (lower != "head")  // implied by GET
                allowed.insert(lower);
        }
        CHECK(documented == allowed);
    }
}

TEST_CASE("each GET operation documents the formats its route offers and a problem for errors")
{
    auto const spec = openapi();
    auto const& paths = spec.at("paths").as_object();
    for (auto const& r : http::route_list()) {
        CAPTURE(r.pattern);
        auto const* item = paths.if_contains(r.pattern);
        if (!item || !item->as_object().contains("get"))
            continue;
        auto const& get = item->at("get").as_object();
        CHECK(get.contains("operationId"));
        CHECK(get.contains("summary"));
        auto const& ok = get.at("responses").at("200").as_object();
        if (r.formats.empty())
            continue;
        std::set<std::string> types;
        for (auto const& [type, media] : ok.at("content").as_object())
            types.insert(std::string(type));
        std::set<std::string> offered;
        r.formats.for_each([&](render::format f) { offered.insert(std::string(render::media_type(f))); });
        CHECK(types == offered);
        CHECK(get.at("responses").as_object().contains("304"));
        CHECK(get.at("responses").as_object().contains("406"));
    }
}

TEST_CASE("the OpenAPI examples are the worked example of the methodology")
{
    auto const text = fixture_snapshot()->find_document("/openapi.json")->body;
    for (char const* figure : {"\"2.400\"", "\"1.680\"", "\"0.840\"", "\"1.092\""})
        CHECK(text.find(figure) != std::string::npos);
}

TEST_CASE("each operation's OpenAPI parameters are its MCP input schema's properties, with the same bounds")
{
    auto const spec = openapi();
    auto const& paths = spec.at("paths").as_object();
    for (auto const& op : api::operations()) {
        CAPTURE(op.route);
        auto const& get = paths.at(op.route).at("get").as_object();
        CHECK(get.at("operationId").as_string() == op.tool);
        auto const input = api::input_schema(op);
        auto const& properties = input.at("properties").as_object();
        auto const* params = get.if_contains("parameters");
        std::size_t const count = params ? params->as_array().size() : 0;
        CHECK(count == properties.size());
        if (!params)
            continue;
        for (auto const& p : params->as_array()) {
            auto const& name = p.at("name").as_string();
            CAPTURE(name);
            REQUIRE(properties.contains(name));
            auto const& property = properties.at(name).as_object();
            for (auto const* bound : {"minimum", "exclusiveMinimum", "maximum", "enum", "minItems", "maxItems"}) {
                CAPTURE(bound);
                auto const* documented = p.at("schema").as_object().if_contains(bound);
                auto const* declared = property.if_contains(bound);
                CHECK((documented == nullptr) == (declared == nullptr));
                if (documented && declared)
                    CHECK(*documented == *declared);
            }
        }
    }
}

namespace {

// Every "$ref" of a JSON value, at any depth, and whether a "$defs" appears anywhere.
void collect_refs(boost::json::value const& v, std::vector<std::string>& refs, bool& nested_defs)
{
    if (auto const* o = v.if_object()) {
        for (auto const& [key, sub] : *o) {
            if (key == "$defs")
                nested_defs = true;
            if (key == "$ref" && sub.is_string())
                refs.emplace_back(sub.get_string());
            collect_refs(sub, refs, nested_defs);
        }
    } else if (auto const* a = v.if_array()) {
        for (auto const& sub : *a)
            collect_refs(sub, refs, nested_defs);
    }
}

// The value a local reference ("#/components/schemas/Sheet") names, or null.
boost::json::value const* resolve(boost::json::value const& root, std::string_view ref)
{
    if (!ref.starts_with("#/"))
        return nullptr;
    auto const* at = &root;
    for (std::string_view rest = ref.substr(2); at;) {
        auto const slash = rest.find('/');
        std::string token(rest.substr(0, slash));
        for (auto i = token.find('~'); i != std::string::npos; i = token.find('~', i + 1))
            token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
        auto const* o = at->if_object();
        at = o ? o->if_contains(token) : nullptr;
        if (slash == std::string_view::npos)
            break;
        rest.remove_prefix(slash + 1);
    }
    return at;
}

}

TEST_CASE("every reference of the OpenAPI description resolves, and no schema nests $defs (generators read them)")
{
    boost::json::value const spec = openapi();
    std::vector<std::string> refs;
    bool nested_defs = false;
    collect_refs(spec, refs, nested_defs);
    CHECK_FALSE(nested_defs);
    CHECK(refs.size() > 100);
    for (auto const& ref : refs) {
        CAPTURE(ref);
        CHECK(resolve(spec, ref) != nullptr);
    }
    // A definition that several output schemas share is one component, which their documents name.
    auto const& schemas = spec.at("components").at("schemas").as_object();
    REQUIRE(schemas.contains("Decimal"));
    for (auto const* document : {"SheetRow", "Estimate", "Catalog", "Sizing"}) {
        CAPTURE(document);
        CHECK(boost::json::serialize(schemas.at(document)).find("\"#/components/schemas/Decimal\"") != std::string::npos);
    }
}
