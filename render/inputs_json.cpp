// JSON of a week's inputs: its observations (as text, in parts), their summary by model, and the
// raw market files they were read from.
#include "render/json.hpp"
#include "render/resources.hpp"

#include "render/json_writer.hpp"

#include <algorithm>
#include <set>
#include <type_traits>

namespace lcg::render {

namespace {

namespace json = boost::json;
using pricing::to_decimal;

// The members both forms of a sheet's inputs begin with.
template <class AddMember>
void observations_heading(pricing::price_sheet const& sheet, std::size_t count, AddMember&& add)
{
    auto const window = pricing::observation_window(sheet.week);
    std::string const week = pricing::to_string(sheet.week);
    add("week", week);
    add("window_from", pricing::to_rfc3339(window.from));
    add("window_until", pricing::to_rfc3339(window.until));
    add("inputs_sha256", sheet.inputs_sha256);
    add("canonical_csv_url", path_of(resource::observations, week) + ".csv");
    add("count", count);
}

}

std::string observations_text(pricing::price_sheet const& sheet, std::size_t count,
                              std::span<const pricing::observation> observations, text_part where)
{
    json_writer w;
    if (where.first) {
        w.begin_object();
        observations_heading(sheet, count, [&](std::string_view name, auto const& value) {
            if constexpr (std::is_integral_v<std::decay_t<decltype(value)>>)
                w.member_number(name, static_cast<std::int64_t>(value));
            else
                w.member(name, value);
        });
        w.key("observations").begin_array();
    } else {
        w.resume(2);  // the document's object and its observations array
    }
    for (auto const& o : observations) {
        w.begin_object()
            .member("observed_at", pricing::to_rfc3339(o.observed_at))
            .member("gpu", o.gpu)
            .member("price_per_gpu_hour", to_decimal(o.price, 6))
            .member("source", o.source)
            .member("listing_id", o.listing_id);
        if (o.source_url.empty())
            w.key("source_url").null();
        else
            w.member("source_url", o.source_url);
        w.end_object();
    }
    if (!where.last)
        return std::move(w).part();
    w.end_array();
    w.end_object();
    return std::move(w).text();
}

void observations_summary::add(std::span<const pricing::observation> observations)
{
    for (auto const& o : observations) {
        auto found = ranges_.find(o.gpu);
        if (found == ranges_.end())
            found = ranges_.emplace(o.gpu, range{0, o.price, o.price}).first;
        auto& r = found->second;
        r.low = std::min(r.low, o.price);
        r.high = std::max(r.high, o.price);
        ++r.count;
    }
    count_ += observations.size();
}

json::object observations_summary::json(pricing::price_sheet const& sheet) const
{
    json::object out;
    observations_heading(sheet, count_, [&](std::string_view name, auto const& value) { out[name] = value; });
    json::array models;
    for (auto const& [gpu, r] : ranges_)
        models.push_back({{"gpu", gpu},
                          {"count", r.count},
                          {"lowest", to_decimal(r.low, 6)},
                          {"highest", to_decimal(r.high, 6)}});
    out["models"] = std::move(models);
    return out;
}

json::object raw_inputs_json(pricing::price_sheet const& sheet, std::span<const pricing::raw_input> files)
{
    json::array listed, mappings;
    std::set<std::string_view> named;
    for (auto const& f : files) {
        listed.push_back({{"source", f.source},
                          {"format", f.format},
                          {"memory_convention", f.memory_convention},
                          {"observed_at", pricing::to_rfc3339(f.observed_at)},
                          {"sha256", f.sha256},
                          {"bytes", f.bytes},
                          {"mapping_sha256", f.mapping_sha256},
                          {"reader", f.reader},
                          {"path", "sources/" + f.sha256}});
        if (named.insert(f.mapping_sha256).second)
            mappings.push_back({{"sha256", f.mapping_sha256}, {"path", "sources/" + f.mapping_sha256}});
    }
    std::string const week = pricing::to_string(sheet.week);
    return {{"week", week},
            {"inputs_sha256", sheet.inputs_sha256},
            {"canonical_csv_url", path_of(resource::observations, week) + ".csv"},
            {"sample", sheet.is_sample()},
            {"count", files.size()},
            {"files", std::move(listed)},
            {"mappings", std::move(mappings)}};
}

}
