#include "gpu_lookup.hpp"

#include "quantity.hpp"
#include "rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace lcg::pricing {

namespace {

constexpr std::array<std::string_view, 6> brand_words{"nvidia", "amd", "geforce", "instinct", "radeon", "tesla"};
constexpr std::size_t max_words = 8;

// The words of a name, lower case, brands dropped, "sxm5" read as "sxm" and "80 gb" as "80gb". Only
// what comes before a parenthesis counts: "H100 NVL (94 GB, per GPU)" is the words h100 and nvl.
std::vector<std::string> words_of(std::string_view text)
{
    text = text.substr(0, std::min(text.size(), rules::max_gpu_name_bytes));
    text = text.substr(0, text.find('('));
    std::vector<std::string> out;
    std::string word;
    auto const flush = [&] {
        if (word.empty())
            return;
        if (word.starts_with("sxm") && word.size() == 4 && std::isdigit(static_cast<unsigned char>(word[3])))
            word = "sxm";
        if (word == "gb" && !out.empty() && std::all_of(out.back().begin(), out.back().end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            out.back() += "gb";
        else if (std::find(brand_words.begin(), brand_words.end(), word) == brand_words.end() && out.size() < max_words)
            out.push_back(word);
        word.clear();
    };
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else
            flush();
    }
    flush();
    return out;
}

bool has_word(std::vector<std::string> const& words, std::string const& w)
{
    return std::find(words.begin(), words.end(), w) != words.end();
}

int variant_rank(gpu_model const& m)
{
    auto const id = words_of(m.id);
    if (has_word(id, "sxm") || m.form_factor == "SXM")
        return 0;
    if (has_word(id, "pcie"))
        return 1;
    if (has_word(id, "nvl"))
        return 2;
    return 3;
}

}

gpu_match lookup_gpu(std::string_view text, catalog const& cat)
{
    if (auto const* model = cat.find(ascii_lower(text.substr(0, std::min(text.size(), rules::max_gpu_name_bytes)))))
        return {model, {}};
    auto const asked = words_of(text);
    if (asked.empty())
        return {};
    struct scored {
        gpu_model const* model;
        std::size_t shared;
    };
    std::vector<scored> all;
    for (auto const& m : cat.gpus) {
        auto const id_words = words_of(m.id);
        if (id_words == asked)
            return {&m, {}};
        auto known = words_of(m.name);
        known.insert(known.end(), id_words.begin(), id_words.end());
        auto const shared = static_cast<std::size_t>(
            std::count_if(asked.begin(), asked.end(), [&](std::string const& w) { return has_word(known, w); }));
        if (shared > 0)
            all.push_back({&m, shared});
    }
    std::size_t best = 0;
    for (auto const& s : all)
        best = std::max(best, s.shared);
    std::erase_if(all, [&](scored const& s) { return s.shared < best; });
    if (best == asked.size() && all.size() == 1)
        return {all.front().model, {}};
    std::stable_sort(all.begin(), all.end(), [](scored const& a, scored const& b) {
        return variant_rank(*a.model) < variant_rank(*b.model);
    });
    gpu_match out;
    for (auto const& s : all)
        if (out.candidates.size() < static_cast<std::size_t>(rules::gpu_candidates))
            out.candidates.push_back(s.model);
    return out;
}

}
