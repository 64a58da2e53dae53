#pragma once

#include "glossary/document.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// What a pair of content files must satisfy beyond their syntax (see parse_document).
namespace lcg::glossary {

struct expected_category {
    std::string_view slug;
    std::size_t terms;
};

// The six categories, in file order, with the number of terms each holds (85 in all).
inline constexpr expected_category expected_categories[] = {
    {"pricing-billing", 17},       {"gpu-hardware", 20},    {"inference-serving", 14},
    {"training-fine-tuning", 9},   {"platform-access", 18}, {"payment-identity", 8},
};

// The three questions, in file order.
inline constexpr std::string_view expected_questions[] = {"what-is-a-gpu-hour", "on-demand-vs-interruptible",
                                                          "how-much-vram"};

inline constexpr std::size_t max_definition_sentences = 3;
inline constexpr std::size_t min_answer_sentences = 2;
inline constexpr std::size_t max_answer_sentences = 5;

// Every problem of one file, each "<file>:<line>: <reason>", in line order; empty when it is valid:
// the expected categories with their counts, the three questions, unique slugs, related slugs
// that name another term, definitions of 1 to 3 sentences and answers of 2 to 5 (see
// split_sentences), well-formed placeholders in texts and none in names or aliases.
std::vector<std::string> check_document(document const& doc);

// check_document on both, then what ties the languages together: the same categories, terms and
// questions in the same order, with the same related slugs and the same placeholders per entry.
// Problems of the second file point at its own lines.
std::vector<std::string> check_translation(document const& en, document const& fr);

}
