#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Text helpers of the glossary: words, sentences, edit distance (folding is locale::fold).
// UTF-8 in, UTF-8 out; an invalid byte is kept as it is and never stops the scan.
namespace lcg::glossary {

// The words of fold(utf8): maximal runs of ASCII letters and digits ("GPU-heure" → gpu, heure).
std::vector<std::string> words(std::string_view utf8);

// The sentences of a one-line text, trimmed. A sentence ends at '.', '!', '?' or '…' (plus any
// closing quote or bracket) followed by white space and then an upper-case letter, a digit or an
// opening quote, or by the end of the text. So decimals ("1.5", "0,840"), amounts ("$0.08"),
// placeholders ("{{price:h100-sxm:spot}}"), a lower-case continuation and the abbreviations
// e.g., i.e., vs., cf. and approx. never end a sentence. Text after the last terminator counts
// as a sentence of its own.
std::vector<std::string_view> split_sentences(std::string_view text);

// `s` without leading and trailing spaces and tabs.
std::string_view trim(std::string_view s);

// Levenshtein distance, byte by byte (slugs are ASCII).
std::size_t edit_distance(std::string_view a, std::string_view b);

}
