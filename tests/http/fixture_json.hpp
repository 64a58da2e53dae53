#pragma once

#include "fixture.hpp"

#include <boost/json/parse.hpp>
#include <doctest/doctest.h>

#include <string>

namespace lcg::testing {

// The JSON object fixture_request(target) answers, its status checked against `status`: for the
// test cases (doctest), not the tools built on the fixture.
inline boost::json::object fixture_json(std::string const& target, unsigned status = 200)
{
    auto const res = fixture_request(target);
    CHECK(res.result_int() == status);
    return boost::json::parse(res.body().str()).as_object();
}

}
