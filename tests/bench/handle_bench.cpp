// In-process cost of answering requests, sockets left out: http::handle on the test fixture's
// snapshot, a fixed number of times per target. Prints nanoseconds per request for each target.
//   lcg_handle_bench [iterations] [target ...]
#include "tests/http/fixture.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    long const iterations = argc > 1 ? std::stol(argv[1]) : 200'000;
    std::vector<std::string> targets;
    for (int i = 2; i < argc; ++i)
        targets.emplace_back(argv[i]);
    if (targets.empty())
        targets = {"/v1/prices", "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot", "/v1/gpus/h100-sxm",
                   "/v1/sizing?params_b=70&precision=int8"};
    for (auto const& target : targets) {
        std::size_t bytes = 0;
        auto const started = std::chrono::steady_clock::now();
        for (long i = 0; i < iterations; ++i)
            bytes += lcg::testing::fixture_request(target).body().size();
        auto const took = std::chrono::steady_clock::now() - started;
        std::printf("%8.0f ns  %6zu bytes  %s\n",
                    std::chrono::duration<double, std::nano>(took).count() / static_cast<double>(iterations),
                    bytes / static_cast<std::size_t>(iterations), target.c_str());
    }
}
