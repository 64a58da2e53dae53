#pragma once

#include "calendar.hpp"
#include "money.hpp"
#include "observation.hpp"
#include "sheet.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::pricing {

// Every listing's per-GPU price by model, and who offers it: all that the rules of any version read
// of a sheet's inputs. A source's name is kept once, so a listing costs 16 bytes.
class listing_tally {
public:
    void add(std::string_view gpu, std::string_view source, money price);

    // The rows of `catalog_ids`, in that order, by the rules of `version` (1 or rules::rules_version).
    std::vector<sheet_row> compute_rows(std::span<const std::string> catalog_ids, int version) const;

    // The models with at least one listing, in id order.
    std::vector<std::string> models() const;

private:
    struct listing {
        std::uint32_t source;  // an index into sources_
        money price;
    };

    std::uint32_t source_id(std::string_view source);

    std::vector<std::string> sources_;
    std::map<std::string, std::uint32_t, std::less<>> source_ids_;
    std::map<std::string, std::vector<listing>, std::less<>> by_gpu_;
};

// The observations that lie outside a sheet's window: how many, and the first of them.
struct outside_window {
    long count = 0;
    std::string first_gpu;
    instant first_at;
};

// A sheet's inputs read as they arrive, one CSV line at a time, keeping only what its audit needs:
// the listings (listing_tally), the count, the observations outside the sheet's window, the
// problems of bad lines, and whether the bytes are exactly the canonical CSV of the observations
// they hold (canonical_observations_csv). The bytes themselves are not kept.
class inputs_tally {
public:
    // Longer lines than max_csv_line_bytes are kept only up to one byte past it, which the reader
    // refuses (and are not canonical).
    static constexpr std::size_t max_line_bytes = max_csv_line_bytes + 1;

    // `week`: the week the sheet names; when it is no week, the window is not checked (the audit
    // reports the week).
    explicit inputs_tally(std::string_view week);

    // The next bytes of the CSV, split anywhere: each line is read once its "\n" arrives.
    void read(std::string_view bytes);
    // Call once after the last bytes: reads an unterminated last line and checks the header.
    void finish();

    listing_tally const& listings() const { return listings_; }
    long observations() const { return observations_; }
    outside_window const& outside() const { return outside_; }
    // Bad lines, as observation_csv_reader reports them: how many, and the first 20.
    long bad_lines() const { return reader_.bad_lines(); }
    std::vector<csv_problem> const& problems() const { return reader_.problems(); }
    bool is_canonical() const { return canonical_; }

private:
    void end_line(std::string_view line);
    void read_line(std::string_view line);
    void check_canonical(observation const& o, std::string_view line);
    void check_window(observation const& o);

    std::optional<time_window> window_;
    observation_csv_reader reader_;
    listing_tally listings_;
    long observations_ = 0;
    outside_window outside_;
    bool canonical_ = true;
    bool with_urls_ = false;  // the header names source_url
    bool any_url_ = false;
    std::optional<observation> previous_;
    std::string rendered_;  // the canonical line of the last observation, reused
    std::string pending_;   // a line not yet ended
    bool overlong_ = false;  // the line being read was cut at max_line_bytes
};

}
