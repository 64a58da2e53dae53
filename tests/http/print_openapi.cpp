// Writes the OpenAPI description the server serves (the static file completed from the operation
// registry) to standard output, for the Redocly lint (tests/web/lint_openapi.sh).
#include "fixture.hpp"

#include <iostream>

int main()
{
    auto const doc = lcg::testing::fixture_snapshot()->find_document("/openapi.json");
    if (!doc)
        return 1;
    std::cout << doc->body;
    return 0;
}
