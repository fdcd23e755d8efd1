#!/usr/bin/env python3
"""Checks a problem ZIP against what DOMjudge's problem import reads.

Usage: scripts/check-domjudge-zip.py PROBLEM.zip [LEGACY_DIR]

What the import reads, and so what is checked:
- `domjudge-problem.ini` at the archive's root: `key = value` lines (`;` comments), keys from
  the importer's list (the problem's `name`, `timelimit`, `special_run`, `special_compare`,
  `externalid`; the contest's `short-name`, `color`, `points`, `allow_submit`,
  `allow_judge`), `externalid` and `short-name` a short name, `timelimit` a positive number of
  seconds;
- `problem.yaml` at the root (name, limits, validator_flags for the default comparator);
- `data/sample/` and `data/secret/`: every `.in` with its `.ans`, nothing else but `.desc`;
- `submissions/<folder>/<file>`: files of a known language, each with an `@EXPECTED_RESULTS@:`
  tag (a comma-separated list of DOMjudge results) in a comment near the top; in a folder named
  for a verdict the tag agrees with the folder, in any other folder the tag alone says what the
  program must get;
- no directory entry that is not a prefix of a file, all paths relative, no `..`.

With LEGACY_DIR (the legacy package of the same problem, which problemtools judged), every
jury submission must be that package's, byte for byte, but for the tag line: so the verdicts
problemtools gave are the ones DOMjudge will expect. A submission outside the verdict folders
is looked up by its file name in LEGACY_DIR's verdict folders, and its tag must agree with the
folder it is found in there.

Exits 0 and prints a summary when the archive passes, 1 with every problem found otherwise.
"""
import configparser
import os
import re
import sys
import zipfile

INI_KEYS = {
    "name", "timelimit", "special_run", "special_compare", "externalid",
    "short-name", "color", "points", "allow_submit", "allow_judge",
}
RESULTS = {
    "CORRECT", "WRONG-ANSWER", "TIMELIMIT", "RUN-ERROR", "COMPILER-ERROR", "NO-OUTPUT",
    "OUTPUT-LIMIT",
}
FOLDERS = {
    "accepted": {"CORRECT"},
    "wrong_answer": {"WRONG-ANSWER"},
    "time_limit_exceeded": {"TIMELIMIT"},
    "run_time_error": {"RUN-ERROR"},
}
LANGUAGES = {".cpp": "C++", ".cc": "C++", ".c": "C", ".py": "Python 3", ".java": "Java",
             ".kt": "Kotlin"}
TAG = re.compile(r"@EXPECTED_RESULTS@:\s*([A-Z-]+(?:\s*,\s*[A-Z-]+)*)")


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    problems = []
    z = zipfile.ZipFile(sys.argv[1])
    names = z.namelist()
    files = [n for n in names if not n.endswith("/")]
    for n in names:
        if n.startswith("/") or ".." in n.split("/"):
            problems.append("unsafe path %s" % n)
        if n.endswith("/") and not any(f.startswith(n) for f in files):
            problems.append("empty directory %s" % n)
    if "domjudge-problem.ini" not in files:
        problems.append("no domjudge-problem.ini at the root")
        ini = {}
    else:
        text = z.read("domjudge-problem.ini").decode("utf-8")
        parser = configparser.ConfigParser(comment_prefixes=(";", "#"))
        parser.read_string("[problem]\n" + text)
        ini = dict(parser["problem"])
        for k in ini:
            if k not in INI_KEYS:
                problems.append("domjudge-problem.ini: unknown key %s" % k)
        for key in ("externalid", "short-name"):
            if not re.fullmatch(r"[a-z0-9]+", ini.get(key, "")):
                problems.append("domjudge-problem.ini: %s is not a short name" % key)
        try:
            if float(ini.get("timelimit", "")) <= 0:
                raise ValueError
        except ValueError:
            problems.append("domjudge-problem.ini: timelimit is not a positive number")
    if "problem.yaml" not in files:
        problems.append("no problem.yaml at the root")
    cases = 0
    for f in files:
        if f.startswith("data/"):
            parts = f.split("/")
            if len(parts) != 3 or parts[1] not in ("sample", "secret"):
                problems.append("test data outside data/sample and data/secret: %s" % f)
                continue
            stem, ext = os.path.splitext(f)
            if ext == ".in":
                cases += 1
                if stem + ".ans" not in files:
                    problems.append("%s has no .ans" % f)
            elif ext == ".ans":
                if stem + ".in" not in files:
                    problems.append("%s has no .in" % f)
            elif ext != ".desc":
                problems.append("unexpected test data file %s" % f)
    if not any(f.startswith("data/sample/") for f in files):
        problems.append("no sample data")
    subs = {}
    for f in files:
        if not f.startswith("submissions/"):
            continue
        parts = f.split("/")
        if len(parts) != 3:
            problems.append("submission not in a folder of submissions/: %s" % f)
            continue
        ext = os.path.splitext(f)[1]
        if ext not in LANGUAGES:
            problems.append("%s: no language for %s" % (f, ext))
        head = z.read(f).decode("utf-8").splitlines()[:5]
        tags = [m for line in head for m in [TAG.search(line)] if m]
        if len(tags) != 1:
            problems.append("%s: expected one @EXPECTED_RESULTS@ tag in its first lines" % f)
            continue
        results = {r.strip() for r in tags[0].group(1).split(",")}
        if not results <= RESULTS:
            problems.append("%s: unknown results %s" % (f, sorted(results - RESULTS)))
        if parts[1] in FOLDERS and not results & FOLDERS[parts[1]]:
            problems.append("%s: the tag %s disagrees with the folder" % (f, sorted(results)))
        subs.setdefault(parts[1], []).append(f)
        if len(sys.argv) == 3:
            legacy = os.path.join(sys.argv[2], f)
            if parts[1] not in FOLDERS:
                found = [d for d in FOLDERS if os.path.isfile(
                    os.path.join(sys.argv[2], "submissions", d, parts[2]))]
                if len(found) != 1:
                    problems.append("%s is in no verdict folder of the legacy package" % f)
                    continue
                if not results & FOLDERS[found[0]]:
                    problems.append("%s: the tag %s disagrees with the legacy package's %s"
                                    % (f, sorted(results), found[0]))
                legacy = os.path.join(sys.argv[2], "submissions", found[0], parts[2])
            if not os.path.isfile(legacy):
                problems.append("%s is not in the legacy package" % f)
            else:
                ours = [line for line in z.read(f).decode("utf-8").splitlines(True)
                        if not TAG.search(line)]
                with open(legacy, encoding="utf-8") as lf:
                    if ours != lf.readlines():
                        problems.append("%s differs from the legacy package's" % f)
    if problems:
        for p in problems:
            print("check-domjudge-zip: %s: %s" % (sys.argv[1], p), file=sys.stderr)
        return 1
    tags = {}
    for k, v in subs.items():
        for f in v:
            tag = TAG.search("".join(z.read(f).decode("utf-8").splitlines(True)[:5])).group(1)
            tags.setdefault(tag, []).append(f)
    print("%s: short-name %s, externalid %s, timelimit %s s, %d test cases, %s; tags %s; every "
          "tag agrees with its folder%s"
          % (os.path.basename(sys.argv[1]), ini.get("short-name"), ini.get("externalid"),
             ini.get("timelimit"), cases,
             ", ".join("%d %s" % (len(v), k) for k, v in sorted(subs.items())),
             ", ".join("%s %d" % (k, len(v)) for k, v in sorted(tags.items())),
             " (or, outside the verdict folders, with the legacy package's)"
             if len(sys.argv) == 3 else ""))
    return 0


sys.exit(main())
