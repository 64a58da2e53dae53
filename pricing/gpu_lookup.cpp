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
constexpr std::size_t max_glued = 3;      // "rtx6000ada" is three words written as one
constexpr std::size_t min_near_word = 3;  // shorter words are too short to guess at

bool is_number(std::string_view w)
{
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_memory(std::string_view w) { return w.size() > 2 && w.ends_with("gb") && is_number(w.substr(0, w.size() - 2)); }

bool has_digit(std::string_view w)
{
    return std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

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
        if (word == "gb" && !out.empty() && is_number(out.back()))
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

bool has_word(std::vector<std::string> const& words, std::string_view w)
{
    return std::find(words.begin(), words.end(), w) != words.end();
}

// Whether b is a with one letter changed, added or removed.
bool one_edit_apart(std::string_view a, std::string_view b)
{
    if (a.size() > b.size())
        std::swap(a, b);
    if (b.size() - a.size() > 1)
        return false;
    std::size_t i = 0;
    while (i < a.size() && a[i] == b[i])
        ++i;
    if (a.size() == b.size())
        return a.substr(i + 1) == b.substr(i + 1);
    return a.substr(i) == b.substr(i + 1);
}

// What a model answers to: its own words (id and name, each also glued to the next one or two, so
// that "h100sxm" and "rtx4090" are its words) and, apart, what it shares with others (the words of
// its architecture and its memory size), which alone never single it out.
struct model_words {
    gpu_model const* model;
    std::vector<std::string> id;      // the words of its id alone
    std::vector<std::string> single;
    std::vector<std::string> own;
    std::vector<std::string> shared;
};

void add_glued(std::vector<std::string>& out, std::vector<std::string> const& words)
{
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::string glued;
        for (std::size_t j = i; j < std::min(words.size(), i + max_glued); ++j)
            out.push_back(glued += words[j]);
    }
}

model_words words_of_model(gpu_model const& m)
{
    model_words w{&m, words_of(m.id), {}, {}, words_of(m.architecture)};
    auto const name = words_of(m.name);
    w.single = w.id;
    w.single.insert(w.single.end(), name.begin(), name.end());
    add_glued(w.own, w.id);
    add_glued(w.own, name);
    w.shared.push_back(std::to_string(m.vram_gb) + "gb");
    return w;
}

int variant_rank(model_words const& m)
{
    if (has_word(m.single, "sxm") || m.model->form_factor == "SXM")
        return 0;
    if (has_word(m.single, "pcie"))
        return 1;
    if (has_word(m.single, "nvl"))
        return 2;
    return 3;
}

// A bare number that is no model's word but some model's memory is that memory: "a100-80".
void read_numbers_as_memory(std::vector<std::string>& asked, std::vector<model_words> const& models)
{
    for (auto& w : asked) {
        if (!is_number(w))
            continue;
        auto const memory = w + "gb";
        bool const a_word = std::any_of(models.begin(), models.end(), [&](model_words const& m) { return has_word(m.own, w); });
        bool const a_memory = std::any_of(models.begin(), models.end(), [&](model_words const& m) { return has_word(m.shared, memory); });
        if (!a_word && a_memory)
            w = memory;
    }
}

// Whether a word can single a model out: one with a digit that is neither a memory size nor an
// architecture ("h100", "4090", "mi300x"; not "141gb", "cdna3", "blackwell").
bool names_a_model(std::string const& w, std::vector<model_words> const& models)
{
    return has_digit(w) && !is_memory(w) &&
           std::none_of(models.begin(), models.end(), [&](model_words const& m) { return has_word(m.shared, w); });
}

struct score {
    model_words const* words;
    std::size_t own = 0;     // asked words among its own
    std::size_t shared = 0;  // asked words only among what it shares with others
    std::size_t near = 0;    // asked words one edit from, or the start of, one of its own
    std::size_t exact() const { return own + shared; }
    std::size_t total() const { return own + shared + near; }
};

score score_of(model_words const& m, std::vector<std::string> const& asked)
{
    score s{&m};
    for (auto const& w : asked) {
        if (has_word(m.own, w))
            ++s.own;
        else if (has_word(m.shared, w))
            ++s.shared;
        else if (w.size() >= min_near_word &&
                 std::any_of(m.single.begin(), m.single.end(),
                             [&](std::string const& o) { return one_edit_apart(w, o) || o.starts_with(w); }))
            ++s.near;
    }
    return s;
}

gpu_match ranked(std::vector<score> scores, gpu_miss miss)
{
    std::stable_sort(scores.begin(), scores.end(), [](score const& a, score const& b) {
        if (a.exact() != b.exact())
            return a.exact() > b.exact();
        if (a.own != b.own)
            return a.own > b.own;
        return variant_rank(*a.words) < variant_rank(*b.words);
    });
    gpu_match out;
    out.miss = miss;
    for (auto const& s : scores)
        if (out.candidates.size() < static_cast<std::size_t>(rules::gpu_candidates))
            out.candidates.push_back(s.words->model);
    return out;
}

}

gpu_match lookup_gpu(std::string_view text, catalog const& cat)
{
    if (auto const* model = cat.find(ascii_lower(text.substr(0, std::min(text.size(), rules::max_gpu_name_bytes)))))
        return {model, {}};
    auto asked = words_of(text);
    if (asked.empty())
        return {};
    std::vector<model_words> models;
    for (auto const& m : cat.gpus) {
        models.push_back(words_of_model(m));
        if (models.back().id == asked)
            return {&m, {}};
    }
    read_numbers_as_memory(asked, models);

    std::vector<score> every, close;
    std::size_t best = 0;
    for (auto const& m : models) {
        auto const s = score_of(m, asked);
        if (s.exact() == asked.size())
            every.push_back(s);
        best = std::max(best, s.total());
        if (s.total() > 0)
            close.push_back(s);
    }
    bool const named = std::any_of(asked.begin(), asked.end(), [&](std::string const& w) { return names_a_model(w, models); });
    if (every.size() == 1 && named)
        return {every.front().words->model, {}};
    if (!every.empty())
        return ranked(std::move(every), named ? gpu_miss::several : gpu_miss::family);
    std::erase_if(close, [&](score const& s) { return s.total() < best; });
    auto const miss = close.empty() ? gpu_miss::unknown : gpu_miss::close;
    return ranked(std::move(close), miss);
}

}
