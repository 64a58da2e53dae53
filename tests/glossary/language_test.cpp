#include "locale/language.hpp"

#include <doctest/doctest.h>

using namespace lcg::locale;

TEST_CASE("parse_language accepts en and fr only")
{
    CHECK(parse_language("en") == language::en);
    CHECK(parse_language("fr") == language::fr);
    CHECK(parse_language("FR") == language::fr);
    CHECK(parse_language("Én") == language::en);  // folded as the glossary folds what people type
    CHECK_FALSE(parse_language("de").has_value());
    CHECK_FALSE(parse_language("fr-CA").has_value());
    CHECK_FALSE(parse_language("").has_value());
    CHECK(to_string(language::fr) == "fr");
}
