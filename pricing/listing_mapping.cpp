#include "listing_mapping.hpp"

#include "lines.hpp"
#include "observation.hpp"
#include "rules.hpp"

#include <algorithm>
#include <charconv>
#include <set>

namespace lcg::pricing {

namespace {

constexpr std::string_view mapping_header = "accelerator,hint,min_memory_gib,max_memory_gib,outcome,gpu,note";
constexpr int max_price_decimals = 18;  // cudo writes 17: 0.36979999999999996
constexpr int max_price_integer_digits = 12;
constexpr std::int64_t max_gpus_in_offer = 1'024;

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool holds_memory(alias_rule const& r, std::optional<std::int64_t> memory_mib)
{
    if (!r.min_memory_gib)
        return true;
    if (!memory_mib || *memory_mib <= 0)
        return false;
    // min ≤ MiB / 1024 ≤ max, with max read as "up to the next whole GiB" (81,559 MiB is 79.6 GiB).
    return *memory_mib >= std::int64_t{*r.min_memory_gib} * 1024 &&
           *memory_mib < (std::int64_t{*r.max_memory_gib} + 1) * 1024;
}

// The rules that decide: hinted over unhinted, then ranged over unranged.
std::vector<alias_rule const*> deciding_rules(market_offer const& offer, std::span<const alias_rule> rules)
{
    std::string const name = normalise_accelerator(offer.accelerator);
    std::string const text = lower(offer.text + ' ' + offer.accelerator);
    std::vector<alias_rule const*> hinted, plain;
    for (auto const& r : rules) {
        if (r.accelerator != name || !holds_memory(r, offer.memory_mib))
            continue;
        if (r.hint.empty())
            plain.push_back(&r);
        else if (text.find(r.hint) != std::string::npos)
            hinted.push_back(&r);
    }
    auto& chosen = hinted.empty() ? plain : hinted;
    if (std::any_of(chosen.begin(), chosen.end(), [](alias_rule const* r) { return r->min_memory_gib.has_value(); }))
        std::erase_if(chosen, [](alias_rule const* r) { return !r->min_memory_gib; });
    return chosen;
}

std::string memory_words(std::optional<std::int64_t> mib)
{
    if (!mib || *mib <= 0)
        return "memory per GPU not stated";
    return std::to_string(*mib) + " MiB per GPU";
}

std::optional<int> optional_int(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value <= 0)
        return -1;
    return value;
}

std::optional<listing_outcome> parse_rule_outcome(std::string_view text)
{
    if (text == "gpu")
        return listing_outcome::imported;
    if (text == "not_in_catalog")
        return listing_outcome::not_in_catalog;
    if (text == "ambiguous")
        return listing_outcome::ambiguous;
    return std::nullopt;
}

}

std::string_view to_string(listing_outcome o)
{
    switch (o) {
    case listing_outcome::imported: return "imported";
    case listing_outcome::duplicate: return "duplicate";
    case listing_outcome::not_gpu: return "not_gpu";
    case listing_outcome::no_price: return "no_price";
    case listing_outcome::not_in_catalog: return "not_in_catalog";
    case listing_outcome::ambiguous: return "ambiguous";
    }
    return "ambiguous";
}

std::string normalise_accelerator(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (c >= 'A' && c <= 'Z')
            out += static_cast<char>(c - 'A' + 'a');
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
    }
    return out;
}

outcome<money> per_gpu_price(std::string_view instance_price, std::int64_t gpus)
{
    auto const d = read_plain_decimal(instance_price);
    if (!d || d->negative)
        return invalid(instance_price.empty() ? "no on-demand price" : quote(instance_price) + " is not a price");
    if (d->whole.size() > max_price_integer_digits || d->fraction.size() > max_price_decimals)
        return invalid(quote(instance_price) + " has more digits than a price can");
    // price × 10^6 = a + r: a from the digits down to the micro, 0 ≤ r < 1 from those after it.
    std::int64_t const a = units_of(*d, 6);
    auto const fraction = d->fraction;
    bool const r_nonzero = fraction.size() > 6 && fraction.substr(6).find_first_not_of('0') != std::string_view::npos;
    bool const r_at_least_half = fraction.size() > 6 && fraction[6] >= '5';
    if (a == 0 && !r_nonzero)
        return invalid("the on-demand price is 0");
    // round((a + r) / gpus) half-up = ⌊(2a + 2r + g) / 2g⌋: the r term only matters when the integer
    // remainder is 2g − 1, and then exactly when r ≥ 1/2.
    std::int64_t const g = gpus;
    std::int64_t micros = (2 * a + g) / (2 * g);
    if ((2 * a + g) % (2 * g) == 2 * g - 1 && r_at_least_half)
        ++micros;
    if (micros == 0)
        return invalid(quote(instance_price) + " for " + std::to_string(gpus) + " GPUs rounds to $0 per GPU");
    if (micros > rules::max_observed_price.micros())
        return invalid(quote(instance_price) + " per GPU is above the largest accepted price, " +
                       to_decimal(rules::max_observed_price));
    return money::from_micros(micros);
}

std::optional<std::int64_t> gpu_count(std::string_view text)
{
    // A count written with a bare point ("8.", as a float printed without decimals) is still 8.
    auto const d = read_plain_decimal(text.ends_with('.') ? text.substr(0, text.size() - 1) : text);
    if (!d || d->negative || d->fraction.find_first_not_of('0') != std::string_view::npos || d->whole.size() > 6)
        return std::nullopt;
    std::int64_t const n = units_of(*d, 0);
    if (n <= 0 || n > max_gpus_in_offer)
        return std::nullopt;
    return n;
}

namespace {

// What one rule makes of a listing.
mapping_result ruled(market_offer const& offer, alias_rule const& rule)
{
    if (rule.outcome == listing_outcome::imported)
        return {listing_outcome::imported, rule.gpu, {}};
    return {rule.outcome, {}, rule.note + " (" + quote(offer.accelerator) + ", " + memory_words(offer.memory_mib) + ")"};
}

// Deciding rules that disagree make the listing ambiguous; one that says so itself says why.
mapping_result disagreement(market_offer const& offer, std::span<alias_rule const* const> chosen)
{
    for (auto const* r : chosen)
        if (r->outcome == listing_outcome::ambiguous)
            return ruled(offer, *r);
    std::string fits;
    for (auto const* r : chosen)
        if (r->outcome == listing_outcome::imported)
            fits += (fits.empty() ? "" : ", ") + r->gpu;
    return {listing_outcome::ambiguous, {},
            quote(offer.accelerator) + " fits several rules" + (fits.empty() ? "" : " (" + fits + ")")};
}

}

mapping_result map_offer(market_offer const& offer, std::span<const alias_rule> rules)
{
    std::string const name = normalise_accelerator(offer.accelerator);
    if (std::none_of(rules.begin(), rules.end(), [&](alias_rule const& r) { return r.accelerator == name; }))
        return {listing_outcome::not_in_catalog, {}, "no mapping for the accelerator " + quote(offer.accelerator)};
    auto const chosen = deciding_rules(offer, rules);
    if (chosen.empty())
        return {listing_outcome::ambiguous, {},
                "no rule for " + quote(offer.accelerator) + " fits this listing (" + memory_words(offer.memory_mib) + ")"};
    std::set<std::string> outcomes;
    for (auto const* r : chosen)
        outcomes.insert(std::string(to_string(r->outcome)) + ' ' + r->gpu);
    return outcomes.size() > 1 ? disagreement(offer, chosen) : ruled(offer, *chosen.front());
}

std::vector<classified_listing> classify_offers(std::span<const market_offer> offers, std::span<const alias_rule> rules)
{
    std::vector<classified_listing> out;
    out.reserve(offers.size());
    std::set<std::string_view> seen;
    for (auto const& offer : offers) {
        classified_listing& l = out.emplace_back();
        l.listing_id = offer.listing_id;
        auto const gpus = gpu_count(offer.gpu_count);
        if (offer.accelerator.empty() || !gpus) {
            l.outcome = listing_outcome::not_gpu;
            l.reason = offer.accelerator.empty() ? "no accelerator" : "no whole GPU count (" + quote(offer.gpu_count) + ")";
            continue;
        }
        if (!seen.insert(offer.listing_id).second) {
            l.outcome = listing_outcome::duplicate;
            l.reason = "the listing id appears earlier in the file";
            continue;
        }
        auto const price = per_gpu_price(offer.price, *gpus);
        if (!price) {
            l.outcome = listing_outcome::no_price;
            l.reason = price.err().message;
            continue;
        }
        auto mapped = map_offer(offer, rules);
        l.outcome = mapped.outcome;
        l.gpu = std::move(mapped.gpu);
        l.reason = std::move(mapped.reason);
        if (l.outcome == listing_outcome::imported)
            l.price = *price;
    }
    return out;
}

std::string mapping_csv(std::span<const alias_rule> rules)
{
    std::string out(mapping_header);
    out += '\n';
    for (auto const& r : rules) {
        append_csv_field(out, r.accelerator);
        out += ',';
        append_csv_field(out, r.hint);
        out += ',';
        out += r.min_memory_gib ? std::to_string(*r.min_memory_gib) : "";
        out += ',';
        out += r.max_memory_gib ? std::to_string(*r.max_memory_gib) : "";
        out += ',';
        out += r.outcome == listing_outcome::imported ? "gpu" : std::string(to_string(r.outcome));
        out += ',';
        out += r.gpu;
        out += ',';
        append_csv_field(out, r.note);
        out += '\n';
    }
    return out;
}

outcome<std::vector<alias_rule>> parse_mapping_csv(std::string_view csv)
{
    std::vector<alias_rule> rules;
    long line_no = 0;
    while (!csv.empty()) {
        std::string_view const line = take_line(csv);
        if (++line_no == 1) {
            if (line != mapping_header)
                return invalid("the mapping's header is not " + std::string(mapping_header));
            continue;
        }
        auto const fields = split_csv_record(line);
        auto fail = [&](std::string const& why) {
            return invalid("mapping line " + std::to_string(line_no) + ": " + why);
        };
        if (!fields || fields->size() != 7)
            return fail("not 7 fields");
        auto const& f = *fields;
        alias_rule r{f[0], f[1], optional_int(f[2]), optional_int(f[3]), {}, f[5], f[6]};
        auto const kind = parse_rule_outcome(f[4]);
        if (!kind)
            return fail("outcome " + quote(f[4]) + " is not gpu, not_in_catalog or ambiguous");
        r.outcome = *kind;
        if (r.accelerator.empty() || r.accelerator != normalise_accelerator(r.accelerator))
            return fail("accelerator " + quote(r.accelerator) + " is not normalised");
        if (r.min_memory_gib == -1 || r.max_memory_gib == -1 || r.min_memory_gib.has_value() != r.max_memory_gib.has_value() ||
            (r.min_memory_gib && *r.min_memory_gib > *r.max_memory_gib))
            return fail("the memory range is not two whole GiB figures, low to high");
        if ((r.outcome == listing_outcome::imported) != !r.gpu.empty())
            return fail("a gpu outcome names a catalog id, and only it");
        rules.push_back(std::move(r));
    }
    if (line_no == 0)
        return invalid("the mapping is empty");
    return rules;
}

}
