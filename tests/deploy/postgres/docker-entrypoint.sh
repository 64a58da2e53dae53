#!/bin/bash
# Entry point of the postgres:15 stand-in (see the Dockerfile beside it).
set -euo pipefail

if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /run/postgresql
    chown postgres:postgres "$PGDATA" /run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    export POSTGRES_USER=${POSTGRES_USER:-postgres}
    initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
        -E UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
    # As in the official image, the init scripts talk to a server that listens on its socket only,
    # so that nobody connects before they are done.
    pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
    for f in /docker-entrypoint-initdb.d/*; do
        case "$f" in
            *.sh) if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
            *.sql) psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -f "$f" ;;
        esac
    done
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    echo "PostgreSQL init process complete; ready for start up."
fi

if [ "${1:-}" = postgres ]; then
    shift
    exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
