#pragma once

#include "server/digest/digest.hpp"

#include "pricing/inputs_tally.hpp"
#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <string_view>

namespace lcg::mirror {

// What a sheet that passed check_sheet was found to rest on.
struct sheet_checked {
    int rows = 0;
    long observations = 0;
};

// Every check a mirror makes before it accepts a sheet from its upstream, in one place:
//  - its Ed25519 signature, against `pinned_keys`, the keys the operator pinned (the origin's
//    /.well-known/lowcostgpu-keys.json, kept from a trusted download): the key the sheet names must
//    be among them and valid at its publication;
//  - the canonical CSV of its inputs hashes to the sheet's inputs_sha256;
//  - every row recomputed from those inputs with pricing's rules (as `lowcostgpu audit` does) gives
//    exactly the published figures, and the sheet's observation count is the inputs'.
// The error (invalid_argument) names the week and the first check that failed.
pricing::outcome<sheet_checked> check_sheet(pricing::price_sheet const& sheet, std::string_view inputs_csv,
                                            pricing::key_ring const& pinned_keys);

// The two halves, for a caller that fetches the inputs only once the signature holds (so that an
// upstream cannot make a mirror download a week's inputs for a sheet nobody signed).
pricing::outcome<bool> check_signature(pricing::price_sheet const& sheet, pricing::key_ring const& pinned_keys);
pricing::outcome<sheet_checked> check_inputs(pricing::price_sheet const& sheet, std::string_view inputs_csv);

// check_inputs for inputs read as they arrive (a week of millions of rows is never held whole):
// give it the CSV's bytes in order, split anywhere, then ask once for the verdict.
class inputs_check {
public:
    explicit inputs_check(pricing::price_sheet const& sheet);
    void read(std::string_view bytes);
    pricing::outcome<sheet_checked> finish();

private:
    pricing::price_sheet const& sheet_;
    digest::sha256_hasher hasher_;
    pricing::inputs_tally tally_;
};

}
