# Shared by deploy/run and deploy/test: packages, build, a private PostgreSQL, the sample data.
# Sourced, not run. Works as root (PostgreSQL then runs as the postgres user) and as a normal user.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_BIN=/usr/lib/postgresql/15/bin
PACKAGES=(build-essential cmake pkg-config libboost1.81-dev libboost-json1.81-dev libpqxx-dev doctest-dev
          libssl-dev openssl zlib1g-dev postgresql postgresql-client python3 python3-yaml curl
          libmd4c-dev libmd4c-html0-dev chromium clang-14 libclang-rt-14-dev)
# tests/web (the OpenAPI lint) and tests/mcp/e2e (the MCP conformance suite and SDK client, which
# bring their own Node 22) install their tools with npm: Debian's, unless the machine has one.
command -v npm >/dev/null 2>&1 || PACKAGES+=(nodejs npm)

# Each step says when it began, in seconds since the script started: a slow CI run's log then
# shows which step took the time.
say() { printf '\033[1m==> %s\033[0m (at %d s)\n' "$*" "$SECONDS" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

ensure_packages() {
    local missing=()
    for p in "${PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# build DIR BUILD_TYPE [cmake args...]
build() {
    local dir=$1 type=$2
    shift 2
    say "building ($type) in $dir"
    cmake -S "$REPO" -B "$dir" -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
    cmake --build "$dir" -j2
}

# PostgreSQL refuses to run as root: run its programs as the postgres user then.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# pg_start DATADIR PORT: creates the cluster on first use, then starts it on 127.0.0.1:PORT only.
pg_start() {
    local data=$1 port=$2
    if [ ! -s "$data/PG_VERSION" ]; then
        mkdir -p "$data"
        [ "$(id -u)" = 0 ] && chown postgres: "$data"
        chmod 700 "$data"
        as_pg "$PG_BIN/initdb" -D "$data" -U lowcostgpu_admin --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
        -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=''" start >/dev/null
}

pg_stop() { as_pg "$PG_BIN/pg_ctl" -D "$1" -m fast -w stop >/dev/null 2>&1 || true; }

admin_psql() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 "postgresql://lowcostgpu_admin@127.0.0.1:$PG_PORT/${2:-postgres}" -c "$1"; }

url_for() { echo "postgresql://$1@127.0.0.1:$PG_PORT/$2"; }

# dev_signing_key DIR BIN: a development signing key, made by openssl in DIR (outside the repository's
# files) on first use, and the public keys document that serve publishes; exports
# LCG_SIGNING_KEY_FILE and LCG_PUBLIC_KEYS_FILE for publish, serve and the tests. Its window starts
# in 2000 so that every sample sheet falls in it. A production key is made and kept elsewhere
# (deploy/README.md), never here.
dev_signing_key() {
    local dir=$1 bin=$2
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ -s "$dir/signing-key.pem" ] || (umask 077 && openssl genpkey -algorithm ed25519 -out "$dir/signing-key.pem")
    "$bin" public-key --signing-key "$dir/signing-key.pem" --valid-from 2000-01-01T00:00:00Z >"$dir/public-keys.json"
    export LCG_SIGNING_KEY_FILE="$dir/signing-key.pem" LCG_PUBLIC_KEYS_FILE="$dir/public-keys.json"
}

# create_database NAME BIN: a fresh database with migrations, sample observations and sample sheets,
# signed with LCG_SIGNING_KEY_FILE (a development key in $LCG_DEV_KEY_DIR, by default var/dev-key
# of the checkout, when none is set).
create_database() {
    local db=$1 bin=$2 now
    [ -n "${LCG_SIGNING_KEY_FILE:-}" ] || dev_signing_key "${LCG_DEV_KEY_DIR:-$REPO/var/dev-key}" "$bin"
    now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    admin_psql "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lowcostgpu_owner') THEN
                  CREATE ROLE lowcostgpu_owner LOGIN CREATEROLE; END IF; END \$\$;"
    admin_psql "DROP DATABASE IF EXISTS $db WITH (FORCE)"
    admin_psql "CREATE DATABASE $db OWNER lowcostgpu_owner"
    "$bin" migrate --database-url "$(url_for lowcostgpu_owner "$db")" >/dev/null
    # What only a superuser can take from the reader (advisory-lock functions, pg_notify).
    PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 \
        "postgresql://lowcostgpu_admin@127.0.0.1:$PG_PORT/$db" -f "$REPO/sql/admin/reader_rights.sql"
    # Local clusters trust 127.0.0.1; production gives these roles passwords or certificates.
    admin_psql "ALTER ROLE lowcostgpu_publisher LOGIN; ALTER ROLE lowcostgpu_reader LOGIN;"
    psql -X -q -v ON_ERROR_STOP=1 "$(url_for lowcostgpu_publisher "$db")" -f "$REPO/sql/sample/inventory.sql"
    local i week weeks=10
    if [ -n "${LCG_MARKET_DIR:-}" ]; then
        import_market "$db" "$bin" "$now"
        weeks=1
    else
        say "loading synthetic sample observations (10 weeks up to $now)"
        psql -X -q -v ON_ERROR_STOP=1 "$(url_for lowcostgpu_owner "$db")" -f "$REPO/sql/sample/sources.sql"
        python3 "$REPO/sql/sample/generate_observations.py" --now "$now" --weeks 10 |
            "$bin" import-observations --database-url "$(url_for lowcostgpu_publisher "$db")" - >/dev/null
    fi
    for ((i = weeks - 1; i >= 0; i--)); do
        week=$(date -u -d "$now - $i weeks" +%G-W%V)
        "$bin" publish --database-url "$(url_for lowcostgpu_publisher "$db")" --week "$week" >/dev/null
    done
}

# import_market DB BIN NOW: every LCG_MARKET_DIR/<source>/vms.csv (a SkyPilot catalog folder, such
# as catalogs/v8 of the public catalog) imported with import-listings, for the sources the
# methodology names. The files carry no time of their own: they are dated to the last minute of
# the window of the sheet in effect at NOW, so that a local run shows a sheet computed from them.
import_market() {
    local db=$1 bin=$2 now=$3 monday at file source
    monday=$(date -u -d "$(date -u -d "$now" +%F) - $(($(date -u -d "$now" +%u) - 1)) days" +%F)
    at=$(date -u -d "$monday - 1 minute" +%Y-%m-%dT%H:%M:00Z)
    say "importing the market offers of $LCG_MARKET_DIR, observed at $at"
    for file in "$LCG_MARKET_DIR"/*/vms.csv; do
        source=$(basename "$(dirname "$file")")
        "$bin" import-listings --database-url "$(url_for lowcostgpu_publisher "$db")" --format skypilot-vms \
            --source "$source" --observed-at "$at" "$file" | head -1 >&2
    done
}

# promtool, to lint /metrics, from Debian's prometheus package: unpacked rather than installed, so
# no Prometheus server is set up or started on the machine. Prints its path.
ensure_promtool() {
    local dir="$REPO/build/tools"
    if [ ! -x "$dir/promtool" ]; then
        local tmp
        tmp=$(mktemp -d)
        (cd "$tmp" && apt-get download prometheus >/dev/null 2>&1) ||
            { as_root apt-get update -qq && (cd "$tmp" && apt-get download prometheus >/dev/null); }
        dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/x"
        mkdir -p "$dir"
        cp "$tmp/x/usr/bin/promtool" "$dir/promtool"
        rm -rf "$tmp"
    fi
    echo "$dir/promtool"
}

# Containers (deploy/container-test): Debian's podman with runc, netavark and aardvark-dns (networks
# with name resolution), catatonit (the pause process of kube play's pods), iptables (published
# ports), podman-compose, and mmdebstrap to make a base image from Debian's archive.
CONTAINER_PACKAGES=(podman runc netavark aardvark-dns catatonit iptables podman-compose mmdebstrap)
# The stock verifiers the tests hold the publication log and the signatures to: Go's sumdb/note and
# sumdb/tlog (built offline in GOPATH mode) and OpenBSD's signify.
VERIFIER_PACKAGES=(golang-go golang-golang-x-mod-dev signify-openbsd)

# container_engine: installs podman, points it at deploy/containers.conf (unless CONTAINERS_CONF is
# set already) and fails, saying why, when this machine cannot run a container.
container_engine() {
    if [ "$(id -u)" != 0 ]; then
        echo "deploy/container-test runs podman as root (rootless podman needs subordinate uid ranges" \
             "and user namespaces, which these machines do not set up): run it as root or with sudo" >&2
        return 1
    fi
    ensure_packages "${CONTAINER_PACKAGES[@]}"
    export CONTAINERS_CONF=${CONTAINERS_CONF:-$REPO/deploy/containers.conf}
    local out
    if ! out=$(podman info 2>&1 >/dev/null); then
        echo "podman cannot run on this machine (CONTAINERS_CONF=$CONTAINERS_CONF): $out" >&2
        return 1
    fi
}

# container_base_image: debian:12-slim, as deploy/Dockerfile names it. Pulled where a registry
# answers. Elsewhere made from Debian's archive and imported under that name: mmdebstrap's minbase
# with merged /usr and what makes the official image slim (no documentation, manual pages nor
# translations; apt keeps no package files or caches), so that sizes over it mean the same. The tar
# is kept in build/container for the day, and an image imported today is reused.
container_base_image() {
    local image=docker.io/library/debian:12-slim today
    today=$(date -u +%F)
    if timeout 300 podman pull -q "$image" >/dev/null 2>&1; then
        say "pulled $image"
        return 0
    fi
    local comment="lowcostgpu: mmdebstrap bookworm slim $today"
    local have
    have=$(podman image inspect --format '{{.Comment}}' "$image" 2>/dev/null || echo absent)
    if [ "$have" = "$comment" ]; then
        say "no registry answers; using $image made from Debian's archive today"
        return 0
    fi
    if [ "$have" != absent ] && [[ "$have" != "lowcostgpu: mmdebstrap"* ]]; then
        say "no registry answers; using the $image already on this machine"
        return 0
    fi
    local dir="$REPO/build/container" tar clean
    tar="$dir/debian-bookworm-slim-$today.tar"
    clean='rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true'
    mkdir -p "$dir"
    if [ ! -s "$tar" ]; then
        say "no registry answers; making $image from Debian's archive (mmdebstrap)"
        rm -f "$dir"/debian-bookworm-slim-*.tar
        if ! mmdebstrap --format=tar --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
                --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
                --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
                --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
                --aptopt='Acquire::Languages "none"' \
                --aptopt="DPkg::Post-Invoke { \"$clean\"; }" --aptopt="APT::Update::Post-Invoke { \"$clean\"; }" \
                --aptopt='Dir::Cache::pkgcache ""' --aptopt='Dir::Cache::srcpkgcache ""' \
                bookworm "$tar.part" >"$dir/mmdebstrap.log" 2>&1; then
            tail -20 "$dir/mmdebstrap.log" >&2
            echo "mmdebstrap could not make $image from Debian's archive (log: $dir/mmdebstrap.log)" >&2
            return 1
        fi
        mv "$tar.part" "$tar"
    fi
    podman import -q -m "$comment" \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        "$tar" "$image" >/dev/null
}

# container_postgres_image: postgres:15 for compose.yaml and the test's database. Pulled where a
# registry answers; elsewhere the stand-in of tests/deploy/postgres, built on debian:12-slim.
container_postgres_image() {
    local image=docker.io/library/postgres:15
    if timeout 300 podman pull -q "$image" >/dev/null 2>&1; then
        say "pulled $image"
        return 0
    fi
    if podman image exists "$image" &&
        [ "$(podman image inspect --format '{{index .Labels "io.lowcostgpu.stand-in"}}' "$image")" != postgres ]; then
        say "no registry answers; using the $image already on this machine"
        return 0
    fi
    say "no registry answers; building a $image stand-in from Debian's postgresql-15"
    podman build -q --network host --format docker --label io.lowcostgpu.stand-in=postgres \
        -t "$image" "$REPO/tests/deploy/postgres" >/dev/null
}
