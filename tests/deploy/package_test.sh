#!/usr/bin/env bash
# Issue 28, item 4: the Debian package of lowcostgpu, packed by CPack from the build under test
# (cmake/package.cmake), installs with apt on a fresh Debian 12 container (debian:12-slim, its
# dependencies fetched from Debian's archive), and in it `lowcostgpu mcp --upstream URL` answers an
# MCP client's tools/list with no other set-up: it pins the origin's key on first use and says so
# with the key id. The origin is this build's `lowcostgpu serve` on a copy of the sample database.
#
# Usage (ctest runs it, from deploy/test's environment): tests/deploy/package_test.sh BUILD_DIR
# Needs root (podman) and LCG_TEST_ADMIN_URL, LCG_TEST_TEMPLATE, LCG_TEST_PG_PORT and
# LCG_PUBLIC_KEYS_FILE, as deploy/test exports them.
source "$(dirname "$0")/../../deploy/lib.sh"
exec </dev/null

if [ "$(id -u)" != 0 ] && sudo -n true 2>/dev/null; then
    exec sudo -n --preserve-env=LCG_TEST_ADMIN_URL,LCG_TEST_TEMPLATE,LCG_TEST_PG_PORT,LCG_PUBLIC_KEYS_FILE,CONTAINERS_CONF \
        "$0" "$@"
fi
BUILD=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
fail() { echo "FAIL $*" >&2; exit 1; }

container_engine
container_base_image

SCRATCH=$(mktemp -d /tmp/lcg-package.XXXXXX)
chmod 755 "$SCRATCH"
DATABASE=lcg_package_$$
CONTAINER=lcg-package-$$
SERVE_PID=
cleanup() {
    [ -n "$SERVE_PID" ] && { kill "$SERVE_PID" 2>/dev/null; wait "$SERVE_PID" 2>/dev/null; }
    podman rm -f -t 2 "$CONTAINER" >/dev/null 2>&1
    psql -X -q "$LCG_TEST_ADMIN_URL" -c "DROP DATABASE IF EXISTS $DATABASE WITH (FORCE)" >/dev/null 2>&1
    rm -rf "$SCRATCH"
}
trap cleanup EXIT

say "packing the build under test with CPack"
cpack --config "$BUILD/CPackConfig.cmake" -B "$SCRATCH" >"$SCRATCH/cpack.log" 2>&1 ||
    { tail -20 "$SCRATCH/cpack.log" >&2; fail "cpack could not pack $BUILD"; }
DEB=$(ls "$SCRATCH"/lowcostgpu_*_amd64.deb) || fail "cpack made no lowcostgpu_*_amd64.deb"
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
grep -q "libpqxx" <<<"$DEPENDS" || fail "the package names no dependency on libpqxx: $DEPENDS"
CONTENTS=$(dpkg-deb -c "$DEB")
grep -q " ./usr/bin/lowcostgpu$" <<<"$CONTENTS" || fail "the package has no /usr/bin/lowcostgpu"

say "an origin: lowcostgpu serve on a copy of the sample database"
psql -X -q -v ON_ERROR_STOP=1 "$LCG_TEST_ADMIN_URL" \
    -c "CREATE DATABASE $DATABASE TEMPLATE $LCG_TEST_TEMPLATE OWNER lowcostgpu_owner" >/dev/null
PORT=$(free_port)
"$BUILD/server/lowcostgpu" serve --listen "127.0.0.1:$PORT" --public-keys "$LCG_PUBLIC_KEYS_FILE" \
    --database-url "postgresql://lowcostgpu_reader@127.0.0.1:$LCG_TEST_PG_PORT/$DATABASE" >"$SCRATCH/serve.log" 2>&1 &
SERVE_PID=$!
for _ in $(seq 100); do curl -sf -o /dev/null "127.0.0.1:$PORT/readyz" && break; sleep 0.1; done
curl -sf -o /dev/null "127.0.0.1:$PORT/readyz" || { cat "$SCRATCH/serve.log" >&2; fail "the origin is not ready"; }
KEY_ID=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["keys"][0]["key_id"])' "$LCG_PUBLIC_KEYS_FILE")

say "installing it on debian:12-slim and asking tools/list over stdio"
start=$SECONDS
MESSAGES='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"package-test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
# --network host: apt reaches Debian's archive as the host does, and the mirror the origin on loopback.
if ! timeout 600 podman run --name "$CONTAINER" --network host -e "MESSAGES=$MESSAGES" \
        -v "$DEB:/tmp/lowcostgpu.deb:ro" docker.io/library/debian:12-slim sh -c \
        "apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/lowcostgpu.deb \
             >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log >&2; exit 3; }
         printf '%s\n' \"\$MESSAGES\" | lowcostgpu mcp --upstream http://127.0.0.1:$PORT" \
        >"$SCRATCH/out" 2>"$SCRATCH/err"; then
    cat "$SCRATCH/err" >&2
    fail "the package did not install, or lowcostgpu mcp --upstream failed in the container"
fi
say "  ($((SECONDS - start)) s)"
grep -q '"id":2,"result":{"tools":\[' "$SCRATCH/out" || { cat "$SCRATCH/out" "$SCRATCH/err" >&2; fail "no tools/list answer"; }
grep -q '"name":"get_prices"' "$SCRATCH/out" || fail "tools/list does not list get_prices"
grep -q "trusting on first use the signing key(s) $KEY_ID" "$SCRATCH/err" ||
    { cat "$SCRATCH/err" >&2; fail "the mirror did not say it pinned the key $KEY_ID"; }
echo "package test passed: $(basename "$DEB") ($(stat -c %s "$DEB") bytes) installs on debian:12-slim;" \
    "mcp --upstream answered tools/list with $(grep -o '"name":"[a-z_]*","title"' "$SCRATCH/out" | wc -l) tools," \
    "key $KEY_ID pinned on first use"
