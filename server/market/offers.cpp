#include "offers.hpp"

#include "runpod.hpp"
#include "vast.hpp"

#include "pricing/lines.hpp"
#include "pricing/observation.hpp"
#include "pricing/rules.hpp"
#include "pricing/utf8.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>

namespace lcg::market {

using pricing::invalid;
using pricing::market_offer;
using pricing::quote;

namespace {

// The value after 'key': or "key": in a GpuInfo text (a Python literal or JSON): a quoted string
// or a bare token (a number, null). Only the first occurrence is read: the first GPU entry.
std::optional<std::string> literal_value(std::string_view text, std::string_view key)
{
    for (char q : {'\'', '"'}) {
        std::string const quoted = std::string(1, q) + std::string(key) + std::string(1, q);
        auto at = text.find(quoted);
        if (at == std::string_view::npos)
            continue;
        at = text.find_first_not_of(" \t", at + quoted.size());
        if (at == std::string_view::npos || text[at] != ':')
            return std::nullopt;
        at = text.find_first_not_of(" \t", at + 1);
        if (at == std::string_view::npos)
            return std::nullopt;
        if (text[at] == '\'' || text[at] == '"') {
            auto const end = text.find(text[at], at + 1);
            return end == std::string_view::npos ? std::nullopt
                                                 : std::optional(std::string(text.substr(at + 1, end - at - 1)));
        }
        auto const end = text.find_first_of(",}] \t", at);
        return std::string(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    }
    return std::nullopt;
}

std::optional<std::int64_t> whole_number(std::string_view text)
{
    if (auto const dot = text.find('.'); dot != std::string_view::npos) {
        if (text.find_first_not_of('0', dot + 1) != std::string_view::npos)
            return std::nullopt;
        text = text.substr(0, dot);
    }
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n < 0 || n > (std::int64_t{1} << 40))
        return std::nullopt;
    return n;
}

// Memory per GPU in MiB from GpuInfo under the source's convention; empty when not stated.
std::optional<std::int64_t> memory_per_gpu(std::string_view gpu_info, std::string_view count, memory_convention memory)
{
    auto const size = literal_value(gpu_info, "SizeInMiB");
    auto const mib = size ? whole_number(*size) : std::nullopt;
    if (!mib || *mib == 0)
        return std::nullopt;
    switch (memory) {
    case memory_convention::per_gpu_mib: return mib;
    case memory_convention::per_gpu_gb: return *mib * 1024;
    case memory_convention::total_mib: {
        auto const gpus = pricing::gpu_count(count);
        return gpus ? std::optional(*mib / *gpus) : std::nullopt;
    }
    }
    return std::nullopt;
}

// Two prices written in the CSV that are exactly the same amount ("1.0" and "1.00"); empty or
// unreadable: no.
bool same_price(std::string_view price, std::string_view spot_price)
{
    auto const a = pricing::read_plain_decimal(price);
    auto const b = pricing::read_plain_decimal(spot_price);
    if (!a || !b || a->negative != b->negative)
        return false;
    auto const whole = [](std::string_view w) { return w.substr(std::min(w.find_first_not_of('0'), w.size())); };
    auto const fraction = [](std::string_view f) { return f.substr(0, f.find_last_not_of('0') + 1); };
    return whole(a->whole) == whole(b->whole) && fraction(a->fraction) == fraction(b->fraction);
}

struct columns {
    std::size_t count = 0;  // fields per record
    std::optional<std::size_t> instance_type, accelerator, accelerators, price, spot_price, region, gpu_info, upstream,
        zone;
};

bool optional_column(std::string_view name)
{
    return name == "UpstreamCloudId" || name == "AvailabilityZone" || name == "SpotPrice";
}

pricing::outcome<columns> read_header(std::string_view line)
{
    auto const names = pricing::split_csv_record(line);
    if (!names)
        return invalid("the header line is not CSV (broken quoting, or more than " +
                       std::to_string(pricing::rules::max_csv_fields) + " columns)");
    columns c;
    c.count = names->size();
    std::array<std::pair<std::string_view, std::optional<std::size_t>*>, 9> const wanted{{
        {"InstanceType", &c.instance_type}, {"AcceleratorName", &c.accelerator}, {"AcceleratorCount", &c.accelerators},
        {"Price", &c.price}, {"SpotPrice", &c.spot_price}, {"Region", &c.region}, {"GpuInfo", &c.gpu_info},
        {"UpstreamCloudId", &c.upstream}, {"AvailabilityZone", &c.zone}}};
    for (std::size_t i = 0; i < names->size(); ++i)
        for (auto const& [name, slot] : wanted)
            if ((*names)[i] == name) {
                if (slot->has_value())
                    return invalid("the header names " + std::string(name) + " twice");
                *slot = i;
            }
    for (auto const& [name, slot] : wanted)
        if (!slot->has_value() && !optional_column(name))
            return invalid("the header has no " + std::string(name) + " column (a SkyPilot vms.csv has InstanceType, "
                           "AcceleratorName, AcceleratorCount, Price, Region and GpuInfo)");
    return c;
}

market_offer offer_of(std::vector<std::string> const& f, columns const& c, memory_convention memory, int reader)
{
    auto at = [&](std::optional<std::size_t> i) -> std::string const& {
        static std::string const none;
        return i ? f[*i] : none;
    };
    market_offer o;
    o.listing_id = at(c.instance_type) + '|' + at(c.region);
    if (c.zone)
        o.listing_id += '|' + at(c.zone);
    o.accelerator = at(c.accelerator);
    o.gpu_count = at(c.accelerators);
    o.price = at(c.price);
    // A fetcher that knows only an auction's floor writes it as both prices (SkyPilot's mithril file:
    // minimum_price_cents in Price and SpotPrice): no on-demand price, whatever the column says.
    if (reader >= 2 && same_price(o.price, at(c.spot_price)))
        o.price.clear();
    std::string const& info = at(c.gpu_info);
    o.memory_mib = memory_per_gpu(info, o.gpu_count, memory);
    o.text = at(c.instance_type) + ' ' + at(c.upstream) + ' ' + literal_value(info, "Name").value_or("");
    return o;
}

}

pricing::outcome<offer_format> parse_offer_format(std::string_view text)
{
    std::string accepted;
    for (auto f : {offer_format::skypilot_vms, offer_format::vast_bundles, offer_format::runpod_gpu_types}) {
        if (text == to_string(f))
            return f;
        accepted += (accepted.empty() ? "" : ", ") + std::string(to_string(f));
    }
    return invalid(quote(text) + " is not a listings format (accepted: " + accepted + ")");
}

std::string_view to_string(offer_format f)
{
    switch (f) {
    case offer_format::skypilot_vms: return "skypilot-vms";
    case offer_format::vast_bundles: return "vast-bundles";
    case offer_format::runpod_gpu_types: return "runpod-gpu-types";
    }
    return "skypilot-vms";
}

pricing::outcome<memory_convention> parse_memory_convention(std::string_view text)
{
    if (text == "per-gpu-mib")
        return memory_convention::per_gpu_mib;
    if (text == "total-mib")
        return memory_convention::total_mib;
    if (text == "per-gpu-gb")
        return memory_convention::per_gpu_gb;
    return invalid(quote(text) + " is not a memory convention (per-gpu-mib, total-mib, per-gpu-gb)");
}

pricing::outcome<std::vector<market_offer>> read_skypilot_vms(std::string_view file, memory_convention memory, int reader)
{
    if (!pricing::utf8_length(file))
        return invalid("the file is not UTF-8");
    std::optional<columns> header;
    std::vector<market_offer> offers;
    long line_no = 0;
    while (!file.empty()) {
        std::string_view line = pricing::take_line(file);
        ++line_no;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line.empty() && file.empty())
            break;
        if (!header) {
            auto h = read_header(line);
            if (!h)
                return invalid("line 1: " + h.err().message);
            header = *h;
            continue;
        }
        auto const fields = pricing::split_csv_record(line);
        if (!fields || fields->size() != header->count)
            return invalid("line " + std::to_string(line_no) + ": not a record of " + std::to_string(header->count) +
                           " fields");
        offers.push_back(offer_of(*fields, *header, memory, reader));
        if (!pricing::is_listing_id(offers.back().listing_id))
            return invalid("line " + std::to_string(line_no) + ": the listing id must be " + pricing::listing_id_rule());
    }
    if (!header)
        return invalid("the file is empty");
    return offers;
}

pricing::outcome<std::vector<market_offer>> read_offers(offer_format format, std::string_view file,
                                                        memory_convention memory, int reader)
{
    if (reader < 1 || reader > pricing::rules::offer_reader_revision)
        return invalid("it was read with reader revision " + std::to_string(reader) + ", which this build does not know "
                       "(its newest is " + std::to_string(pricing::rules::offer_reader_revision) + ")");
    switch (format) {
    case offer_format::skypilot_vms: return read_skypilot_vms(file, memory, reader);
    case offer_format::vast_bundles: return read_vast_bundles(file);
    case offer_format::runpod_gpu_types: return read_runpod_gpu_types(file);
    }
    return read_skypilot_vms(file, memory, reader);
}

}
