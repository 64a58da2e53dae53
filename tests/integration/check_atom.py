#!/usr/bin/env python3
"""Checks an Atom feed document against RFC 4287 with Python's XML parser (standard library only).

Usage: check_atom.py FEED.xml EXPECTED_ENTRIES
Checks what the RFC requires of atom:feed and atom:entry (sections 4.1.1 and 4.1.2): exactly one
id, title and updated each; an author on the feed or on every entry; ids that are absolute IRIs;
dates in RFC 3339 form (3.3); no two alternate links of the same type and hreflang; every link with
an href; unique entry ids. Exits 1 and names each violation.
"""

import re
import sys
import xml.etree.ElementTree as ET

ATOM = "{http://www.w3.org/2005/Atom}"
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
problems = []


def one(element, name, where):
    found = element.findall(ATOM + name)
    if len(found) != 1:
        problems.append(f"{where}: {len(found)} atom:{name} elements, RFC 4287 requires exactly one")
        return None
    return found[0]


def check_common(element, where):
    ident = one(element, "id", where)
    if ident is not None and not IRI.match(ident.text or ""):
        problems.append(f"{where}: atom:id {ident.text!r} is not an absolute IRI")
    title = one(element, "title", where)
    if title is not None and not (title.text or "").strip():
        problems.append(f"{where}: empty atom:title")
    updated = one(element, "updated", where)
    if updated is not None and not DATE.match(updated.text or ""):
        problems.append(f"{where}: atom:updated {updated.text!r} is not an RFC 3339 date")
    for published in element.findall(ATOM + "published"):
        if not DATE.match(published.text or ""):
            problems.append(f"{where}: atom:published {published.text!r} is not an RFC 3339 date")
    alternates = set()
    for link in element.findall(ATOM + "link"):
        if not link.get("href"):
            problems.append(f"{where}: atom:link without href")
        if link.get("rel", "alternate") == "alternate":
            key = (link.get("type"), link.get("hreflang"))
            if key in alternates:
                problems.append(f"{where}: two alternate links with type and hreflang {key}")
            alternates.add(key)
    return ident.text if ident is not None else None


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    root = ET.parse(path).getroot()
    if root.tag != ATOM + "feed":
        sys.exit(f"the root element is {root.tag}, not atom:feed")
    check_common(root, "feed")
    feed_author = root.find(ATOM + "author")
    entries = root.findall(ATOM + "entry")
    if len(entries) != expected:
        problems.append(f"{len(entries)} entries, expected {expected}")
    ids = set()
    for i, entry in enumerate(entries):
        where = f"entry {i + 1}"
        ident = check_common(entry, where)
        if ident in ids:
            problems.append(f"{where}: atom:id {ident} repeats another entry's")
        ids.add(ident)
        if feed_author is None and entry.find(ATOM + "author") is None:
            problems.append(f"{where}: no atom:author here nor on the feed")
        if entry.find(ATOM + "content") is None and entry.find(ATOM + "summary") is None:
            problems.append(f"{where}: neither atom:content nor atom:summary")
        if entry.find(ATOM + "content") is None and not any(
                link.get("rel", "alternate") == "alternate" for link in entry.findall(ATOM + "link")):
            problems.append(f"{where}: no atom:content, so an alternate link is required (4.1.1)")
        summary = entry.find(ATOM + "summary")
        if summary is not None and "inputs SHA-256" not in (summary.text or ""):
            problems.append(f"{where}: the summary does not give the inputs' SHA-256")
    for p in problems:
        print("FAIL: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
