#!/usr/bin/env bash
# ctest cuts a test's name at ';' (it is CMake's list separator), so a doctest case named with one
# is registered under a prefix that selects no case, and "passes" without running. Refuse such names.
set -euo pipefail
cd "$(dirname "$0")"
if grep -rn --include='*.cpp' 'TEST_CASE("[^"]*;' .; then
    echo "test_names: a TEST_CASE name above holds ';', which ctest cuts: write ',' instead" >&2
    exit 1
fi
echo "test_names: no TEST_CASE name holds ';'"
