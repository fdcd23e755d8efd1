"""Runs the questions of the guide's chapter on SQL (docs/src/sql.md) three ways and fails on any
difference: tomek's own SQL over the tables it computes (whose aligned output must also be the
one the chapter shows), DuckDB over the exported Parquet files, and Polars over the same files;
and the chapter's DuckDB and Polars example, whose output must be the one it shows. The chapter's
questions about a problem of the family (```sql --problem NAME) go the same three ways, over
that problem's export (`tomek export --problem NAME`, written beside EXPORT_DIR).

Usage: verify_export.py TOMEK EXPORT_DIR CHAPTER.md
       verify_export.py --fill TOMEK CHAPTER.md   (writes tomek's outputs into the chapter)
"""

import csv
import io
import os
import subprocess
import sys
import time



def questions(readme):
    """The (title, sql, shown output) triples of the chapter: each ```sql block under a heading,
    then its ```text output."""
    section = open(readme, encoding="utf-8").read()
    found = []
    title = None
    lines = section.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            title = line.lstrip("#").strip()
        if line.strip() == "```sql" and title is not None:
            j = lines.index("```", i + 1)
            sql = "\n".join(lines[i + 1 : j])
            k = j + 1
            while lines[k].strip() == "":
                k += 1
            if lines[k].strip() != "```text":
                raise SystemExit(f"{readme}: question {title!r} has no ```text output after its SQL")
            m = lines.index("```", k + 1)
            shown = "".join(line + "\n" for line in lines[k + 1 : m])
            found.append((title, sql, shown))
            title = None
            i = m
        i += 1
    return found


def problem_questions(readme):
    """The (problem, sql, shown output) triples of the section's questions about a problem of
    the family: a ```sql --problem NAME block, then the ```text output."""
    lines = open(readme, encoding="utf-8").read().splitlines()
    found = []
    for i, line in enumerate(lines):
        words = line.strip().split()
        if words[:2] != ["```sql", "--problem"] or len(words) != 3:
            continue
        j = lines.index("```", i + 1)
        k = j + 1
        while lines[k].strip() == "":
            k += 1
        if lines[k].strip() != "```text":
            raise SystemExit(f"{readme}: the {words[2]} question at {line!r} has no ```text output")
        m = lines.index("```", k + 1)
        sql = "\n".join(lines[i + 1 : j])
        shown = "".join(x + "\n" for x in lines[k + 1 : m])
        found.append((words[2], sql, shown))
    return found


def check_problem_questions(tomek, export, readme, duckdb, pl):
    """Each question about a problem three ways, over the problem's export beside `export`;
    returns the number of differences."""
    failures = 0
    qs = problem_questions(readme)
    if not qs:
        raise SystemExit(f"{readme}: no question about a problem of the family (```sql --problem)")
    for name in sorted({q[0] for q in qs}):
        out = os.path.join(os.path.dirname(os.path.abspath(export)), f"problem-{name}")
        subprocess.run(
            [tomek, "export", "--quiet", "--force", "--problem", name, "-o", out],
            check=True, stdout=subprocess.DEVNULL,
        )
        con = duckdb.connect()
        con.execute(
            f"CREATE VIEW boards AS SELECT * FROM read_parquet('{out}/*/*.parquet', "
            "hive_partitioning = true)"
        )
        frame = pl.scan_parquet(
            f"{out}/**/*.parquet", hive_partitioning=True, hive_schema={"setup": pl.String}
        )
        ctx = pl.SQLContext(boards=frame)
        for problem, sql, shown in (q for q in qs if q[0] == name):
            table = subprocess.run(
                [tomek, "query", "--quiet", "--problem", problem, sql],
                check=True, capture_output=True, text=True,
            ).stdout
            if table != shown:
                print(f"the chapter shows another output for {problem}'s {sql!r}:\n{shown}\n"
                      f"tomek prints:\n{table}")
                failures += 1
            ours = tomek_rows(tomek, sql, ["--problem", problem])
            theirs = [[norm(v) for v in r] for r in con.execute(sql).fetchall()]
            polars = [[norm(v) for v in r] for r in ctx.execute(sql).collect().rows()]
            for engine, rows in (("DuckDB", theirs), ("Polars", polars)):
                if rows != ours:
                    print(f"{engine} differs on {problem}'s {sql!r}:\n  tomek: {ours[:5]}\n"
                          f"  {engine}: {rows[:5]}")
                    failures += 1
            print(f"{problem}: {' '.join(sql.split())[:70]}: {len(ours)} rows")
    return failures


def engines_example(readme):
    """The Python example of the chapter's DuckDB and Polars section, and its shown output."""
    text = open(readme, encoding="utf-8").read()
    start = text.index(" The same questions in DuckDB and Polars\n")
    code_at = text.index("```python\n", start) + len("```python\n")
    code_end = text.index("```\n", code_at)
    shown_at = text.index("```text\n", code_end) + len("```text\n")
    shown_end = text.index("```\n", shown_at)
    return text[code_at:code_end], text[shown_at:shown_end]


def check_engines_example(export, readme):
    """Runs the chapter's DuckDB and Polars example beside the export (which it reads as
    `boards/`); returns 1 when its output is not the one the chapter shows, else 0."""
    if os.path.basename(os.path.normpath(export)) != "boards":
        raise SystemExit(f"{export}: the chapter's example reads a directory named boards")
    code, shown = engines_example(readme)
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=os.path.dirname(os.path.abspath(export)),
        check=True, capture_output=True, text=True,
    ).stdout
    if out.rstrip("\n") != shown.rstrip("\n"):
        print(f"the chapter shows another output for the DuckDB and Polars example:\n{shown}\n"
              f"it prints:\n{out}")
        return 1
    print("the DuckDB and Polars example prints what the chapter shows")
    return 0


def norm(v):
    """One cell as text, the same whoever computed it."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def tomek_rows(tomek, sql, options=()):
    out = subprocess.run(
        [tomek, "query", "--quiet", "--format", "csv", *options, sql],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = list(csv.reader(io.StringIO(out)))
    return [[c if not _is_float(c) else f"{float(c):.6g}" for c in r] for r in rows[1:]]


def _is_float(c):
    if "." not in c:
        return False
    try:
        float(c)
        return True
    except ValueError:
        return False


def fill(tomek, readme):
    """Replaces each question's shown output with what tomek prints."""
    text = open(readme, encoding="utf-8").read()
    for title, sql, shown in questions(readme):
        table = subprocess.run(
            [tomek, "query", "--quiet", sql], check=True, capture_output=True, text=True
        ).stdout
        block = f"```sql\n{sql}\n```\n\n```text\n{shown}```"
        if block not in text:
            raise SystemExit(f"{readme}: cannot find the blocks of {title!r}")
        text = text.replace(block, f"```sql\n{sql}\n```\n\n```text\n{table}```", 1)
        print(f"{title}: {len(table.splitlines()) - 1} rows")
    open(readme, "w", encoding="utf-8").write(text)


def main():
    if sys.argv[1] == "--fill":
        fill(sys.argv[2], sys.argv[3])
        return
    import duckdb
    import polars as pl

    tomek, export, readme = sys.argv[1:4]
    files = f"{export}/*/*.parquet"
    con = duckdb.connect()
    con.execute(
        f"CREATE VIEW boards AS SELECT * FROM read_parquet('{files}', hive_partitioning = true)"
    )
    frame = pl.scan_parquet(
        f"{export}/**/*.parquet", hive_partitioning=True, hive_schema={"setup": pl.String}
    )
    ctx = pl.SQLContext(boards=frame)
    qs = questions(readme)
    if len(qs) < 10:
        raise SystemExit(f"{readme}: {len(qs)} questions, expected at least 10")
    failures = check_engines_example(export, readme)
    print(f"{'question':<60} {'rows':>5} {'tomek':>8} {'duckdb':>8} {'polars':>8}")
    for title, sql, shown in qs:
        t0 = time.time()
        table = subprocess.run(
            [tomek, "query", "--quiet", sql], check=True, capture_output=True, text=True
        ).stdout
        t_tomek = time.time() - t0
        if table != shown:
            print(f"the chapter shows another output for {title!r}:\n{shown}\ntomek prints:\n{table}")
            failures += 1
        ours = tomek_rows(tomek, sql)
        t0 = time.time()
        theirs = [[norm(v) for v in r] for r in con.execute(sql).fetchall()]
        t_duck = time.time() - t0
        t0 = time.time()
        polars = [[norm(v) for v in r] for r in ctx.execute(sql).collect().rows()]
        t_polars = time.time() - t0
        for name, rows in (("DuckDB", theirs), ("Polars", polars)):
            if rows != ours:
                print(f"{name} differs on {title!r}:\n  tomek: {ours[:5]}\n  {name}: {rows[:5]}")
                failures += 1
        print(f"{title[:60]:<60} {len(ours):>5} {t_tomek:>7.2f}s {t_duck:>7.2f}s {t_polars:>7.2f}s")
    failures += check_problem_questions(tomek, export, readme, duckdb, pl)
    print(f"{len(qs)} questions, {failures} differences")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
