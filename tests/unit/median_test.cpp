#include "pricing/median.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

using lcg::pricing::money;
using lcg::pricing::twice_median;

namespace {

std::vector<money> prices(std::initializer_list<std::int64_t> micros)
{
    std::vector<money> out;
    for (auto m : micros)
        out.push_back(money::from_micros(m));
    return out;
}

// The definition of DESIGN §2, by a full sort.
std::int64_t reference_twice_median(std::vector<money> v)
{
    std::sort(v.begin(), v.end());
    auto const n = v.size();
    return n % 2 == 1 ? 2 * v[n / 2].micros() : v[n / 2 - 1].micros() + v[n / 2].micros();
}

}

TEST_CASE("twice_median of a single element is twice that element")
{
    CHECK(twice_median(prices({2'400'000})) == 4'800'000);
    CHECK(twice_median(prices({1})) == 2);
}

TEST_CASE("twice_median of an odd count is twice the middle value")
{
    CHECK(twice_median(prices({1'000'000, 2'400'000, 3'000'000})) == 4'800'000);
    CHECK(twice_median(prices({5, 1, 3})) == 6);
    CHECK(twice_median(prices({9, 7, 5, 3, 1})) == 10);
    CHECK(twice_median(prices({2'500'000, 2'300'000, 2'400'000, 2'600'000, 2'200'000})) == 4'800'000);
}

TEST_CASE("twice_median of an even count is the sum of the two middle values")
{
    CHECK(twice_median(prices({1, 2})) == 3);
    CHECK(twice_median(prices({2, 1})) == 3);
    CHECK(twice_median(prices({1, 2, 3, 4})) == 5);
    CHECK(twice_median(prices({4, 3, 2, 1})) == 5);
    CHECK(twice_median(prices({10, 1, 7, 3})) == 10);
    CHECK(twice_median(prices({2'350'000, 2'450'000, 2'500'000, 2'300'000})) == 4'800'000);
    // An odd sum: the median is a half micro, kept exactly.
    CHECK(twice_median(prices({999'999, 1'000'000})) == 1'999'999);
    CHECK(twice_median(prices({1, 100, 1'000'000, 50'000'000, 3, 2})) == 103);
}

TEST_CASE("twice_median with duplicates")
{
    CHECK(twice_median(prices({2, 2, 2})) == 4);
    CHECK(twice_median(prices({2, 2, 2, 9})) == 4);
    CHECK(twice_median(prices({1, 1, 9, 9})) == 10);
    CHECK(twice_median(prices({9, 1, 9, 1})) == 10);
    CHECK(twice_median(prices({7, 7})) == 14);
    CHECK(twice_median(prices({3, 1, 3, 3, 1, 1})) == 4);
    CHECK(twice_median(prices({5, 5, 5, 5, 5, 1, 9})) == 10);
}

TEST_CASE("twice_median does not depend on the order of its input (every permutation)")
{
    for (auto base : {prices({1, 2, 3, 4, 5, 6}), prices({1, 2, 2, 3, 3, 3}), prices({1, 2, 3, 4, 5, 6, 7}),
                      prices({4, 4, 1, 1, 9, 9, 2})}) {
        std::sort(base.begin(), base.end());
        std::int64_t const expected = reference_twice_median(base);
        int permutations = 0;
        do {
            ++permutations;
            CHECK(twice_median(base) == expected);
        } while (std::next_permutation(base.begin(), base.end()));
        CHECK(permutations > 1);
    }
}

TEST_CASE("twice_median equals the full-sort definition on random inputs")
{
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::size_t> size(1, 101);
    std::uniform_int_distribution<std::int64_t> wide(1, 100'000'000'000);  // up to the $100,000 bound
    std::uniform_int_distribution<std::int64_t> narrow(1, 5);              // many duplicates
    for (int i = 0; i < 2'000; ++i) {
        std::vector<money> v(size(rng));
        for (auto& p : v)
            p = money::from_micros(i % 2 == 0 ? wide(rng) : narrow(rng));
        CAPTURE(i);
        CHECK(twice_median(v) == reference_twice_median(v));
    }
}
