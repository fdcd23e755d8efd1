#!/usr/bin/env python3
"""Checks that every relative link of README.md and of the guide (docs/src/**/*.md) resolves:
the file or directory it names exists, and its #anchor, if any, is a heading of that markdown
file (or of the same file, for a link that is only an anchor). Anchors follow the slug rule
that GitHub and mdBook share: the heading's text in lower case, letters, digits, `-` and `_`
kept, each blank made `-`, everything else dropped; a repeated slug gets `-1`, `-2`, ...
Links to other sites (http:, https:, mailto:) are not fetched. Links inside code blocks and
code spans are not links.

It also checks that every chapter of docs/src/ is listed in docs/src/SUMMARY.md, so that none is
left out of the book.

Usage: scripts/check-links.py [FILE.md ...]   (default: README.md and docs/src/**/*.md)
Exits 1 when a link does not resolve or a chapter is not in the book, naming what is wrong.
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text):
    """(line number, line) of the text outside fenced code blocks, code spans blanked."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, re.sub(r"`+[^`]*`+", lambda s: " " * len(s.group(0)), line)


def slug(heading):
    """The anchor of a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    out = []
    for ch in text.strip().lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


def anchors(path, cache={}):
    """The anchors of a markdown file's headings."""
    if path not in cache:
        seen = {}
        found = set()
        fence = None
        for line in open(path, encoding="utf-8").read().splitlines():
            m = FENCE.match(line)
            if m:
                fence = None if fence == m.group(1) else (fence or m.group(1))
                continue
            h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if fence is None and h:
                base = slug(h.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def documents():
    out = [os.path.join(ROOT, "README.md")]
    for top, _, files in os.walk(os.path.join(ROOT, "docs", "src")):
        out.extend(os.path.join(top, f) for f in sorted(files) if f.endswith(".md"))
    return out


def prose(text):
    """The text outside fenced code blocks (their lines left empty, so that line numbers
    hold), with code spans blanked: where links are."""
    lines = [""] * len(text.splitlines())
    for number, line in prose_lines(text):
        lines[number - 1] = line
    return "\n".join(lines)


def check(path):
    """The broken links of one file, each described. A link may run over several lines."""
    broken = []
    rel = os.path.relpath(path, ROOT)
    text = prose(open(path, encoding="utf-8").read())
    for m in LINK.finditer(text):
        number = text.count("\n", 0, m.start()) + 1
        target = m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # another site, or mailto:
        file, _, anchor = target.partition("#")
        dest = path if not file else os.path.normpath(os.path.join(os.path.dirname(path), file))
        if not os.path.exists(dest):
            broken.append(f"{rel}:{number}: {target}: no such file")
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            broken.append(f"{rel}:{number}: {target}: no heading #{anchor} there")
        elif anchor and not dest.endswith(".md"):
            broken.append(f"{rel}:{number}: {target}: an anchor into a file that is not markdown")
    return broken


def unlisted():
    """The chapters of docs/src/ that SUMMARY.md does not list."""
    src = os.path.join(ROOT, "docs", "src")
    summary = os.path.join(src, "SUMMARY.md")
    listed = set()
    for m in LINK.finditer(prose(open(summary, encoding="utf-8").read())):
        listed.add(os.path.normpath(os.path.join(src, m.group(2).partition("#")[0])))
    return [
        f"{os.path.relpath(f, ROOT)}: not listed in docs/src/SUMMARY.md"
        for f in documents()
        if f.startswith(src) and f != summary and os.path.normpath(f) not in listed
    ]


def main():
    files = [os.path.abspath(f) for f in sys.argv[1:]] or documents()
    broken = [b for f in files for b in check(f)]
    if not sys.argv[1:]:
        broken += unlisted()
    for b in broken:
        print(b)
    links = sum(len(LINK.findall(prose(open(f, encoding="utf-8").read()))) for f in files)
    print(f"check-links: {len(files)} files, {links} links, {len(broken)} broken")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
