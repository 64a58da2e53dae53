#!/usr/bin/env bash
# One start-up of `serve`, for hyperfine: exec, then poll until /readyz answers 200, then stop it.
# Usage: startup_once.sh BIN DATABASE_URL PORT   (gives up after 10 s)
set -euo pipefail
"$1" serve --listen "127.0.0.1:$3" --database-url "$2" >/dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 2000); do
    curl -sf -o /dev/null "127.0.0.1:$3/readyz" && exit 0
    sleep 0.005
done
echo "serve was not ready after 10 s" >&2
exit 1
