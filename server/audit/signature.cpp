#include "server/audit/signature.hpp"

#include "server/trust/trust.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <limits>
#include <stdexcept>

namespace lcg::audit {

namespace {

namespace json = boost::json;

std::string text_of(json::object const& o, char const* key, bool required = true)
{
    auto const* v = o.if_contains(key);
    if (v && v->is_string())
        return std::string(v->as_string());
    if (required)
        throw std::runtime_error(std::string("the sheet has no string member ") + key);
    return {};
}

// A count of the signed content. One outside what the signed bytes can state is refused: read as
// 32 bits, 2^32 + 812 would rebuild the bytes of 812 and pass a signature that never covered it.
int integer_of(json::object const& o, char const* key)
{
    auto const* v = o.if_contains(key);
    if (!v || !(v->is_int64() || v->is_uint64()))
        throw std::runtime_error(std::string("the sheet has no integer member ") + key);
    if (!v->is_int64() || v->as_int64() < 0 || v->as_int64() > std::numeric_limits<int>::max())
        throw std::runtime_error(std::string("the sheet's ") + key + " is " + json::serialize(*v) +
                                 ", which no signed sheet states");
    return static_cast<int>(v->as_int64());
}

}

pricing::signed_content signed_content_from_json(json::object const& sheet)
{
    pricing::signed_content c;
    c.week = text_of(sheet, "week");
    c.effective_from = text_of(sheet, "effective_from");
    c.effective_until = text_of(sheet, "effective_until");
    c.published_at = text_of(sheet, "published_at");
    c.rules_version = integer_of(sheet, "rules_version");
    c.inputs_sha256 = text_of(sheet, "inputs_sha256");
    c.observations = integer_of(sheet, "observations");
    auto const* prices = sheet.if_contains("prices");
    if (!prices || !prices->is_array())
        throw std::runtime_error("the sheet has no prices array");
    for (auto const& v : prices->as_array()) {
        if (!v.is_object())
            throw std::runtime_error("a row of prices is not an object");
        auto const& o = v.as_object();
        auto const* available = o.if_contains("available");
        pricing::signed_row row;
        row.gpu = text_of(o, "gpu");
        row.available = available && available->is_bool() && available->as_bool();
        row.observations = integer_of(o, "observations");
        row.figures = {text_of(o, "median", false),   text_of(o, "cap", false),      text_of(o, "on_demand", false),
                       text_of(o, "spot", false),     text_of(o, "reserved", false), text_of(o, "headroom", false)};
        row.reason = text_of(o, "reason", false);
        c.rows.push_back(std::move(row));
    }
    return c;
}

bool check_signature(json::object const& sheet, pricing::key_ring const& keys, std::ostream& report)
{
    std::string bytes;
    pricing::signed_content content;
    try {
        content = signed_content_from_json(sheet);
        bytes = pricing::signed_bytes(content);
    } catch (std::exception const& e) {
        report << "  FAIL signature: cannot rebuild the signed bytes: " << e.what() << "\n";
        return false;
    }
    auto const published_at = pricing::parse_utc_timestamp(content.published_at);
    auto const effective_from = pricing::parse_utc_timestamp(content.effective_from);
    if (!published_at || !effective_from) {
        report << "  FAIL signature: " << (published_at ? "effective_from: " + effective_from.err().message
                                                        : "published_at: " + published_at.err().message)
               << "\n";
        return false;
    }
    auto const signature = sheet.if_contains("signature");
    auto const key_id = sheet.if_contains("key_id");
    auto const as_text = [](json::value const* v) {
        return v && v->is_string() ? std::string(v->as_string()) : std::string();
    };
    auto const result = trust::verify_bytes(bytes, as_text(signature), as_text(key_id), {*effective_from, *published_at}, keys);
    if (!result) {
        report << "  FAIL signature: " << result.err().message << "\n";
        return false;
    }
    report << "  ok   signature Ed25519, key " << result->key_id << "\n";
    return true;
}

}
