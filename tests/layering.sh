#!/usr/bin/env bash
# The layout is the architecture: checks that every folder includes only what it may (STYLE.md,
# "Boundaries"). Prints each offending include and exits 1 if there is any.
set -u
cd "$(dirname "$0")/.."
status=0

# forbid FOLDER REGEX WHY: no include line in FOLDER may match REGEX.
forbid() {
    local hits
    hits=$(grep -rnE "^\s*#\s*include\s*[<\"]($2)" "$1" --include='*.hpp' --include='*.cpp' 2>/dev/null)
    if [ -n "$hits" ]; then
        printf '%s may not include %s (%s):\n%s\n' "$1/" "$2" "$3" "$hits"
        status=1
    fi
}

forbid pricing 'locale/|glossary/|render/|api/|mcp/|server/|boost/|pqxx/|openssl/|zlib' "pure core: the standard library only"
forbid pricing 'fstream|iostream|filesystem|cstdio|thread|random' "no I/O, no clocks, no randomness"
forbid locale 'glossary/|render/|api/|mcp/|server/|boost/|pqxx/' "the languages use only pricing/"
forbid glossary 'render/|api/|mcp/|server/|boost/|pqxx/' "glossary uses only pricing/ and locale/"
forbid render 'api/|mcp/|server/|boost/asio|boost/beast|pqxx/' "rendering has no I/O and knows no face"
forbid api 'mcp/|server/|boost/asio|boost/beast|pqxx/' "operations know no transport"
forbid mcp 'server/|boost/beast|boost/asio|pqxx/' "mcp uses api/ and below, and Boost.JSON"
forbid server/store 'boost/beast|boost/json|server/http|render/|server/snapshot' "the store speaks SQL only"
forbid server/http 'pqxx/|server/store' "no SQL on the request path"

# server/store/session.hpp is the store's private header (the connection its use cases share): only
# server/store's own .cpp files may include it, and it is the one header that may name libpqxx.
if grep -rnE 'pqxx::|<pqxx' server --include='*.hpp' | grep -v '^server/store/session.hpp:' >/dev/null; then
    echo "libpqxx types must not appear in headers:"
    grep -rnE 'pqxx::|<pqxx' server --include='*.hpp' | grep -v '^server/store/session.hpp:'
    status=1
fi
if grep -rlE '#\s*include\s*"server/store/session.hpp"' . --include='*.hpp' --include='*.cpp' | grep -v '^./server/store/[^/]*\.cpp$' >/dev/null; then
    echo "server/store/session.hpp is included outside server/store's .cpp files:"
    grep -rlE '#\s*include\s*"server/store/session.hpp"' . --include='*.hpp' --include='*.cpp' | grep -v '^./server/store/[^/]*\.cpp$'
    status=1
fi
if grep -rnE '\b(float|double)\b' pricing --include='*.hpp' --include='*.cpp' | grep -v '^\S*:\s*//' >/dev/null; then
    echo "floating point in pricing/ (money is exact):"
    grep -rnE '\b(float|double)\b' pricing --include='*.hpp' --include='*.cpp'
    status=1
fi
[ $status = 0 ] && echo "layering: every folder includes only what it may"
exit $status
