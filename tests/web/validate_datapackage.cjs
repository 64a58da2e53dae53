// Validates a week's datapackage.json with Frictionless's own JavaScript library (npm
// `datapackage`): the descriptor against the tabular-data-package profile, then each resource's
// file, laid out by lcg_print_datapackage under DIR at its URL's path, against the descriptor:
// its byte count and SHA-256, and every row cast by its Table Schema (types, missing values).
// Usage: node validate_datapackage.cjs DIR
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { Package, Resource } = require('datapackage');

async function main(dir) {
  const descriptor = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8'));
  const pkg = await Package.load(descriptor);
  if (!pkg.valid) {
    for (const e of pkg.errors) console.log(`datapackage.json: ${e.message}`);
    return false;
  }
  if (pkg.descriptor.profile !== 'tabular-data-package' || pkg.resources.length !== 2) {
    console.log('datapackage.json: not a tabular data package of two resources');
    return false;
  }
  let ok = true;
  for (const r of pkg.resources) {
    const d = r.descriptor;
    const local = path.join(dir, new URL(d.path).pathname);
    const bytes = fs.readFileSync(local);
    const sha256 = 'sha256:' + crypto.createHash('sha256').update(bytes).digest('hex');
    console.log(`${d.name}: ${d.path} ${bytes.length} bytes ${sha256}`);
    if (d.hash !== sha256) { console.log(`  hash ${d.hash} is not the file's`); ok = false; }
    if (d.bytes !== bytes.length) { console.log(`  bytes ${d.bytes} is not the file's ${bytes.length}`); ok = false; }
    // The same resource read from the local copy: every row must cast to the schema's types.
    const copy = await Resource.load({ ...d, path: path.relative(dir, local) }, { basePath: dir });
    if (!copy.valid) { for (const e of copy.errors) console.log(`  ${e.message}`); ok = false; continue; }
    const rows = await copy.read({ cast: true, keyed: true });
    const headers = copy.headers;
    const names = d.schema.fields.map((f) => f.name);
    if (JSON.stringify(headers) !== JSON.stringify(names)) {
      console.log(`  header ${headers} is not the schema's fields ${names}`);
      ok = false;
    }
    console.log(`  ${rows.length} rows cast by its Table Schema`);
    if (rows.length === 0) ok = false;
  }
  return ok;
}

main(process.argv[2]).then(
  (ok) => { console.log(ok ? '1 passed, 0 failed' : '0 passed, 1 failed'); process.exit(ok ? 0 : 1); },
  (e) => { console.log(`${e.message}\n${(e.errors || []).map((x) => x.message).join('\n')}`); console.log('0 passed, 1 failed'); process.exit(1); });
