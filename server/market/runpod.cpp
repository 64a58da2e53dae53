#include "runpod.hpp"

#include "exact_json.hpp"

#include <string>

namespace lcg::market {

using pricing::invalid;
using pricing::market_offer;
using pricing::quote;

namespace {

constexpr std::size_t max_error_echo = 200;

pricing::outcome<market_offer> runpod_offer(member_reader& m, std::string const& where)
{
    std::string const id = m.text("id");
    std::string const display = m.text("displayName");
    auto const memory_gb = whole_part(m.number("memoryInGb"));
    market_offer o;
    o.listing_id = id + "|secure";
    o.accelerator = display.empty() ? id : display;
    o.gpu_count = "1";
    o.price = m.number("securePrice");
    // A type the secure cloud does not offer has no secure on-demand price, whatever it lists.
    if (m.flag("secureCloud") == false)
        o.price.clear();
    if (memory_gb && *memory_gb > 0)
        o.memory_mib = *memory_gb * 1024;
    o.text = id + ' ' + display;
    if (id.empty())
        return invalid(where + " has no id");
    return o;
}

}

// Only the secure cloud is read: the community cloud is third parties' machines at their own
// prices, another market than RunPod's own (and not what the SkyPilot runpod catalog lists), and
// two listings per GpuType would make one seller count twice toward a model's listings.
pricing::outcome<std::vector<market_offer>> read_runpod_gpu_types(std::string_view file)
{
    auto const document = parse_exact_json(file);
    if (!document)
        return document.err();
    if (json_node const* errors = document->member("errors"); errors && !errors->items.empty()) {
        json_node const* message = errors->items.front().member("message");
        std::string const first = message && message->kind == json_kind::string ? message->text.substr(0, max_error_echo) : "";
        return invalid("the answer reports GraphQL errors" + (first.empty() ? "" : " (the first: " + quote(first) + ")") +
                       "; it may be partial");
    }
    json_node const* data = document->member("data");
    json_node const* types = data ? data->member("gpuTypes") : nullptr;
    if (!types)
        return invalid("not a RunPod gpuTypes answer: the document is not {\"data\": {\"gpuTypes\": [...]}}");
    return read_offer_array(*types, "data.gpuTypes", runpod_offer);
}

}
