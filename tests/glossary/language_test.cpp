#include "glossary/language.hpp"

#include <doctest/doctest.h>

using namespace lcg::glossary;

TEST_CASE("parse_language accepts en and fr only")
{
    CHECK(parse_language("en") == language::en);
    CHECK(parse_language("fr") == language::fr);
    CHECK(parse_language("FR") == language::fr);
    CHECK_FALSE(parse_language("de").has_value());
    CHECK_FALSE(parse_language("fr-CA").has_value());
    CHECK_FALSE(parse_language("").has_value());
    CHECK(to_string(language::fr) == "fr");
}

TEST_CASE("Accept-Language: the best q-value among fr and en wins, English by default")
{
    CHECK(negotiate_language("") == language::en);
    CHECK(negotiate_language("fr") == language::fr);
    CHECK(negotiate_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == language::fr);
    CHECK(negotiate_language("de-DE, en;q=0.5, fr;q=0.4") == language::en);
    CHECK(negotiate_language("de, fr;q=0.3") == language::fr);
    CHECK(negotiate_language("en;q=0.2, FR-be;q=0.9") == language::fr);
    CHECK(negotiate_language("de, it") == language::en);
    CHECK(negotiate_language("fr;q=0, en") == language::en);
    CHECK(negotiate_language("fr;q=0") == language::en);
    CHECK(negotiate_language("fr;q=2, en;q=0.1") == language::en);  // a malformed q-value: ignored
    CHECK(negotiate_language("fr;q=0.5, en;q=0.5") == language::fr);  // tie: the earlier
    CHECK(negotiate_language("*, fr;q=0.5") == language::en);
    CHECK(negotiate_language(" fr ; q=1.000 ") == language::fr);
}
