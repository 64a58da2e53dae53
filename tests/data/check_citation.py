#!/usr/bin/env python3
"""Checks CITATION.cff against the Citation File Format 1.2.0: the keys and types its schema gives
(required cff-version, message, title, authors; each author a person or an entity; type, license,
url, identifiers, keywords as the schema types them), and that its licence is the one the code
publishes (render/dataset.hpp's data_license_id). Usage: check_citation.py REPO_ROOT"""
import re
import sys

import yaml

TOP_KEYS = {"abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi", "identifiers",
            "keywords", "license", "license-url", "message", "preferred-citation", "references", "repository",
            "repository-artifact", "repository-code", "title", "type", "url", "version"}
PERSON_KEYS = {"address", "affiliation", "alias", "city", "country", "email", "family-names", "fax", "given-names",
               "name-particle", "name-suffix", "orcid", "post-code", "region", "tel", "website"}
ENTITY_KEYS = {"address", "alias", "city", "country", "date-end", "date-start", "email", "fax", "location", "name",
               "orcid", "post-code", "region", "tel", "website"}
URL = re.compile(r"^(https|http|ftp|sftp)://.+")
# The schema's SPDX list is long; the licences this project may name are few.
SPDX = {"CC-BY-4.0", "CC0-1.0", "ODbL-1.0"}


def problems(cff, code_license):
    out = []
    unknown = set(cff) - TOP_KEYS
    if unknown:
        out.append(f"keys the CFF 1.2.0 schema does not allow: {sorted(unknown)}")
    for key in ("cff-version", "message", "title", "authors"):
        if key not in cff:
            out.append(f"missing required key {key}")
    if cff.get("cff-version") != "1.2.0":
        out.append(f"cff-version must be the string 1.2.0, not {cff.get('cff-version')!r}")
    for key in ("message", "title", "abstract"):
        if key in cff and (not isinstance(cff[key], str) or not cff[key].strip()):
            out.append(f"{key} must be a non-empty string")
    authors = cff.get("authors")
    if not isinstance(authors, list) or not authors:
        out.append("authors must be a non-empty list")
    else:
        for a in authors:
            keys = set(a) if isinstance(a, dict) else set()
            if "name" in keys and not keys - ENTITY_KEYS:
                continue  # an entity
            if keys and not keys - PERSON_KEYS:
                continue  # a person
            out.append(f"author {a!r} is neither a person nor an entity of the schema")
        for a in authors:
            if isinstance(a, dict) and "website" in a and not URL.match(str(a["website"])):
                out.append(f"author website is not a URL: {a['website']!r}")
    if cff.get("type", "software") not in ("software", "dataset"):
        out.append(f"type must be software or dataset, not {cff.get('type')!r}")
    if cff.get("type") != "dataset":
        out.append("this file cites data: type must be dataset")
    if cff.get("license") not in SPDX:
        out.append(f"license must be an SPDX id, not {cff.get('license')!r}")
    if cff.get("license") != code_license:
        out.append(f"license {cff.get('license')!r} is not the one the service publishes ({code_license!r})")
    for key in ("url", "repository", "repository-code", "repository-artifact", "license-url"):
        if key in cff and not URL.match(str(cff[key])):
            out.append(f"{key} is not a URL: {cff[key]!r}")
        if key in cff and re.search(r"YOUR-HOST|example\.com|TODO", str(cff[key])):
            out.append(f"{key} is a placeholder: {cff[key]!r}")
    for i in cff.get("identifiers", []):
        if set(i) - {"type", "value", "description"} or i.get("type") not in ("doi", "url", "swh", "other"):
            out.append(f"identifier {i!r} does not fit the schema")
        elif i["type"] == "url" and not URL.match(str(i["value"])):
            out.append(f"identifier is not a URL: {i!r}")
    kw = cff.get("keywords", [])
    if not isinstance(kw, list) or not all(isinstance(k, str) and k for k in kw):
        out.append("keywords must be a list of non-empty strings")
    return out


def main():
    root = sys.argv[1]
    with open(f"{root}/CITATION.cff", encoding="utf-8") as f:
        text = f.read()
    # cff-version must be a string: YAML reads an unquoted 1.2.0 as one, but never 1.2 as a float.
    cff = yaml.safe_load(text)
    with open(f"{root}/render/dataset.hpp", encoding="utf-8") as f:
        header = f.read()
    code_license = re.search(r'data_license_id = "([^"]+)"', header).group(1)
    license_url = re.search(r'data_license_url = "([^"]+)"', header).group(1)
    with open(f"{root}/README.md", encoding="utf-8") as f:
        if license_url not in f.read():
            print(f"README.md does not link the data licence {license_url}")
            return 1
    found = problems(cff, code_license)
    # The check must be able to fail: a file without authors and of the wrong type is refused.
    broken = dict(cff, type="software")
    del broken["authors"]
    if len(problems(broken, code_license)) < 2:
        print("the checker accepts a CITATION.cff without authors or of type software")
        return 1
    for p in found:
        print(f"CITATION.cff: {p}")
    print(f"{0 if found else 1} passed, {1 if found else 0} failed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
