#pragma once

#include "quantity.hpp"
#include "rules.hpp"

#include <optional>
#include <string>
#include <vector>

// How long moving data between GPUs takes over each link, and how much slower each is than NVLink:
// the lesson's arithmetic (10 GB in 5.6 ms over Blackwell NVLink, 11.1 ms over Hopper NVLink,
// 200 ms over one InfiniBand NIC, 800 ms over 100 Gb Ethernet), exact.
namespace lcg::pricing {

struct transfer_parameters {
    std::optional<std::string> gb{};  // the amount moved, in GB (default rules::lesson_transfer_gb)
};

// The amount in millionths of a GB, up to 6 decimals. Precondition: above 0 and at most
// rules::max_transfer_gb, the bounds of its declaration, which the API's decoder checks.
parsed<std::int64_t> parse_transfer(transfer_parameters const& p);

struct link_time {
    rules::link_rate link;
    std::string gigabytes_per_second;  // "50" for 400 Gb/s: Gb/s divided by 8
    std::string seconds;               // rounded half-up to the microsecond
    std::string milliseconds;          // to a tenth, as the lesson writes them ("5.6")
    std::string slower_than_reference; // the reference link's rate over this one's ("18", "0.5")
};

// The link of rules::links with this id, or null.
rules::link_rate const* find_link(std::string_view id);

// Every link of rules::links, in their order, for `micro_gb`.
std::vector<link_time> transfer_times(std::int64_t micro_gb);

}
