#include "server/audit/catalog.hpp"

#include "server/client/http_client.hpp"
#include "server/digest/digest.hpp"
#include "server/trust/trust.hpp"

#include <boost/json.hpp>

#include <map>
#include <vector>

namespace lcg::audit {

namespace {

namespace json = boost::json;

json::object object_of(std::string const& body, std::string const& what)
{
    json::error_code ec;
    auto v = json::parse(body, ec);
    if (ec || !v.is_object())
        throw std::runtime_error(what + " is not a JSON object");
    return std::move(v.as_object());
}

// What differs between the signed /v1/gpus members and the served /v1/gpus: each signed model must
// be served with every member as signed; the served one may add members (its prices).
void compare_models(json::object const& signed_gpus, json::object const& served_gpus, std::vector<std::string>& out)
{
    std::map<std::string, json::object const*, std::less<>> served;
    for (auto const& g : served_gpus.at("gpus").as_array())
        served[std::string(g.at("id").as_string())] = &g.as_object();
    auto const& models = signed_gpus.at("gpus").as_array();
    if (models.size() != served.size())
        out.push_back("/v1/gpus lists " + std::to_string(served.size()) + " models, the signed catalog " +
                      std::to_string(models.size()));
    for (auto const& m : models) {
        std::string const id(m.at("id").as_string());
        auto const it = served.find(id);
        if (it == served.end()) {
            out.push_back("/v1/gpus does not list " + id);
            continue;
        }
        for (auto const& member : m.as_object()) {
            auto const* shown = it->second->if_contains(member.key());
            if (!shown || *shown != member.value())
                out.push_back("/v1/gpus shows " + id + "'s " + std::string(member.key()) + " as " +
                              (shown ? json::serialize(*shown) : std::string("nothing")) + ", the signed catalog " +
                              json::serialize(member.value()));
        }
    }
}

// What differs between the served /v1/sheets and the signed index: a week withheld, a week
// listed in an older version (rolled back) or otherwise, a week the signed index does not list.
void compare_index(pricing::catalog_signature const& sig, json::object const& served_index,
                   std::vector<std::string>& out)
{
    std::map<std::string, json::object const*, std::less<>> served;
    for (auto const& s : served_index.at("sheets").as_array())
        served[std::string(s.at("week").as_string())] = &s.as_object();
    for (auto const& s : sig.sheets) {
        std::string const week = pricing::to_string(s.week);
        auto const it = served.find(week);
        if (it == served.end()) {
            out.push_back("/v1/sheets does not list " + week + ", which the signed index does: withheld");
            continue;
        }
        auto const published = pricing::parse_utc_timestamp(std::string(it->second->at("published_at").as_string()));
        if (published && *published < s.published_at)
            out.push_back("/v1/sheets lists " + week + " published at " + pricing::to_rfc3339(*published) +
                          ", before the signed index's " + pricing::to_rfc3339(s.published_at) + ": rolled back");
        else if (!published || *published != s.published_at ||
                 it->second->at("inputs_sha256").as_string() != s.inputs_sha256)
            out.push_back("/v1/sheets lists " + week + " otherwise than the signed index");
        served.erase(it);
    }
    for (auto const& extra : served)
        out.push_back("/v1/sheets lists " + extra.first + ", which the signed index does not");
}

}

catalog_audit audit_catalog(fetcher const& fetch, pricing::key_ring const& keys, std::ostream& report)
{
    std::string signature;
    try {
        signature = fetch("/v1/catalog/signature", "application/json");
    } catch (client::fetch_error const& e) {
        // A service that never signed its catalog answers 404: a failed audit, not a broken one.
        report << "catalog: FAILED: no signature to check it by: " << e.what() << "\n";
        return {};
    }
    auto const sig = trust::parse_catalog_signature(signature);
    if (!sig) {
        report << "catalog: FAILED: " << sig.err().message << "\n";
        return {};
    }
    if (auto const by = trust::verify_catalog(*sig, keys); !by) {
        report << "catalog: FAILED: its signature: " << by.err().message << "\n";
        return {};
    }
    std::string const document = fetch("/v1/catalog", "application/json");
    if (document.size() != sig->catalog_bytes || digest::sha256_hex(document) != sig->catalog_sha256) {
        report << "catalog: FAILED: /v1/catalog is not the document its signature vouches for ("
               << sig->catalog_bytes << " bytes, SHA-256 " << sig->catalog_sha256 << ")\n";
        return {false, *sig};
    }
    auto const signed_doc = object_of(document, "/v1/catalog");
    std::vector<std::string> differences;
    for (char const* member : {"regions", "inventory", "sources"}) {
        std::string const path = std::string("/v1/") + member;
        if (json::value(object_of(fetch(path, "application/json"), path)) != signed_doc.at(member))
            differences.push_back(path + " is not the signed catalog's " + member);
    }
    compare_models(signed_doc.at("gpus").as_object(), object_of(fetch("/v1/gpus", "application/json"), "/v1/gpus"),
                   differences);
    compare_index(*sig, object_of(fetch("/v1/sheets", "application/json"), "/v1/sheets"), differences);
    for (auto const& d : differences)
        report << "catalog: FAILED: " << d << "\n";
    if (differences.empty())
        report << "catalog: signed at " << pricing::to_rfc3339(sig->signed_at) << " with key " << sig->key_id
               << "; every model, region, stock and source shown is as signed, and the " << sig->sheets.size()
               << " sheet(s) of /v1/sheets are those of the signed index\n";
    return {differences.empty(), *sig};
}

}
