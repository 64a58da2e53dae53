#include "transfer.hpp"

#include "estimate.hpp"

#include <algorithm>

namespace lcg::pricing {

namespace {

// A link's rate in GB/s as the fraction numerator / denominator.
struct gigabytes_per_second {
    std::int64_t numerator;
    std::int64_t denominator;
};

gigabytes_per_second in_gigabytes(rules::link_rate const& l)
{
    return l.unit == rules::rate_unit::gigabytes_per_second ? gigabytes_per_second{l.rate, 1}
                                                             : gigabytes_per_second{l.rate, rules::bits_per_byte};
}

gigabytes_per_second reference_rate() { return in_gigabytes(*find_link(rules::reference_link)); }

}

rules::link_rate const* find_link(std::string_view id)
{
    auto const* l = std::find_if(std::begin(rules::links), std::end(rules::links),
                                 [&](rules::link_rate const& link) { return link.id == id; });
    return l == std::end(rules::links) ? nullptr : l;
}

parsed<std::int64_t> parse_transfer(transfer_parameters const& p)
{
    if (!p.gb)
        return rules::lesson_transfer_gb * micro_units;
    return units_parameter("gb", *p.gb, 6);
}

std::vector<link_time> transfer_times(std::int64_t micro_gb)
{
    auto const ref = reference_rate();
    std::vector<link_time> out;
    for (auto const& l : rules::links) {
        auto const r = in_gigabytes(l);
        // t = amount / rate: micro_gb millionths of a GB over num/den GB/s is micro_gb × den / num
        // microseconds, or that over 100 in tenths of a millisecond. units_to_decimal counts units
        // of 10^-decimals, hence the factors of 1,000 on the rate and the ratio.
        out.push_back({l, units_to_decimal(r.numerator * 1'000, 1, r.denominator, 3).text,
                       units_to_decimal(micro_gb, r.denominator, r.numerator, 6, 3).text,
                       units_to_decimal(micro_gb, r.denominator, r.numerator * 100, 1).text,
                       units_to_decimal(ref.numerator * 1'000, r.denominator, ref.denominator * r.numerator, 3).text});
    }
    return out;
}

}
