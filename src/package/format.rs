//! One problem, four package formats.
//!
//! A problem is first described once ([`Problem`]: metadata, statement, test cases, invalid
//! inputs, judge programs and what each submission must get), then laid out as the files of a
//! [`Format`]:
//! - [`Format::Legacy`]: the Kattis problem package format, legacy version (problemtools);
//! - [`Format::V2025_09`]: the ICPC problem package format, version 2025-09 (BAPCtools);
//! - [`Format::Domjudge`]: the legacy layout with DOMjudge's `domjudge-problem.ini` and
//!   `@EXPECTED_RESULTS@` tags in the jury submissions, written as the ZIP DOMjudge imports;
//! - [`Format::Polygon`]: a Polygon full package (`problem.xml`, testlib programs).

use super::{Package, WrongSolution, yaml_string};
use std::borrow::Cow;
use std::fmt::Write as _;

/// A package format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The Kattis problem package format, legacy version (problemtools).
    #[default]
    Legacy,
    /// The ICPC problem package format, version 2025-09 (BAPCtools).
    #[cfg_attr(feature = "cli", value(name = "2025-09"))]
    V2025_09,
    /// Polygon's full package.
    Polygon,
    /// DOMjudge's problem ZIP (written as DIR and DIR.zip).
    Domjudge,
}

impl Format {
    /// Every format, in the order of their names.
    pub const ALL: [Format; 4] = [
        Format::Legacy,
        Format::V2025_09,
        Format::Polygon,
        Format::Domjudge,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Legacy => "legacy",
            Format::V2025_09 => "2025-09",
            Format::Polygon => "polygon",
            Format::Domjudge => "domjudge",
        }
    }

    /// The format of a name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the package is meant to travel as a ZIP archive (DOMjudge imports one).
    pub fn is_zip(self) -> bool {
        self == Format::Domjudge
    }
}

/// The verdict a submission must get on the whole of the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
}

/// One test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// `sample` or `secret`.
    pub group: &'static str,
    /// The test group of a secret case: the kind of data it holds (`killer`, `edge`, ...).
    /// The 2025-09 package puts the case in `data/secret/<kind>/`, the Polygon package in a
    /// group of that name; the legacy layout has no test groups. Empty for the sample.
    pub kind: &'static str,
    /// The file name without extension.
    pub name: String,
    /// The input.
    pub input: Vec<u8>,
    /// The right answer.
    pub answer: Vec<u8>,
    /// What the case holds and how to rebuild it.
    pub desc: String,
}

impl Case {
    /// The case's test group under `data/`: `sample`, or `secret/<kind>`.
    pub fn dir(&self) -> String {
        if self.kind.is_empty() {
            self.group.to_string()
        } else {
            format!("{}/{}", self.group, self.kind)
        }
    }

    /// `group/kind/name`, the case's path under `data/` in the 2025-09 package and its name
    /// in `submissions.yaml`.
    pub fn path(&self) -> String {
        format!("{}/{}", self.dir(), self.name)
    }
}

/// An input the validator must reject: a near miss of a valid file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// A short name, used as the file name.
    pub name: String,
    /// The bytes.
    pub input: Vec<u8>,
    /// Why it is invalid, in words.
    pub why: String,
}

/// A submission and the verdicts it must get.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The file name, such as `solution.cpp`.
    pub file: String,
    /// The whole program.
    pub source: String,
    /// Its verdict on the whole of the data.
    pub verdict: Verdict,
    /// For a wrong submission: its bug.
    pub bug: Option<String>,
    /// For a wrong submission: the paths ([`Case::path`]) of cases it must answer wrongly.
    /// Empty when not known.
    pub fails_on: Vec<String>,
    /// Whether [`Self::fails_on`] is every case it answers wrongly, so that it must pass
    /// every other case (else the other cases may go either way).
    pub fails_only_there: bool,
}

impl Submission {
    /// An accepted submission.
    pub fn accepted(file: &str, source: &str) -> Submission {
        Submission {
            file: file.to_string(),
            source: source.to_string(),
            verdict: Verdict::Accepted,
            bug: None,
            fails_on: Vec::new(),
            fails_only_there: false,
        }
    }

    /// A wrong solution as a wrong_answer submission (a Python program) that must fail the
    /// cases `fails_on`, and only them when `fails_only_there`.
    pub fn wrong(w: WrongSolution, fails_on: Vec<String>, fails_only_there: bool) -> Submission {
        Submission {
            file: format!("{}.py", w.id),
            source: w.source,
            verdict: Verdict::WrongAnswer,
            bug: Some(w.bug),
            fails_on,
            fails_only_there,
        }
    }

    /// A wrong program given whole (no bug description, no known cases).
    pub fn wrong_program(file: &str, source: &str) -> Submission {
        Submission {
            verdict: Verdict::WrongAnswer,
            ..Submission::accepted(file, source)
        }
    }

    /// The folder of `submissions/` that says its verdict.
    pub fn folder(&self) -> &'static str {
        match self.verdict {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong_answer",
        }
    }

    /// Whether the program is Python (else C++).
    pub fn is_python(&self) -> bool {
        self.file.ends_with(".py")
    }
}

/// The time limit, derived from measured run times.
///
/// A limit must leave every submission's verdict independent of the judge's speed: the
/// accepted ones well inside it, and the wrong ones (which still read every case) too, or a
/// slower machine turns a wrong answer into a time-out. BAPCtools warns about exactly that
/// when any run lies between the limit over `ac_to_time_limit` and the limit times
/// `time_limit_to_tle`, so the limit clears the slowest run of any kind by both factors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// The slowest accepted submission's time on the slowest case, in seconds, as measured
    /// by `scripts/bench.sh package` (its timing rows; see docs/src/package/time-limits.md).
    pub slowest_ac: f64,
    /// The slowest time of any submission, wrong ones included, on the slowest case.
    pub slowest_run: f64,
}

impl Timing {
    /// 2025-09's `ac_to_time_limit` (and legacy's `time_multiplier`): the time limit is at
    /// least this many times the slowest run.
    pub const AC_TO_TIME_LIMIT: f64 = 2.0;
    /// 2025-09's `time_limit_to_tle` (legacy's `time_safety_margin`): a wrong submission
    /// is TLE only when slower than this many times the limit.
    pub const TIME_LIMIT_TO_TLE: f64 = 1.5;
    /// How much slower than the measuring machine a judge (or a loaded test machine) may run.
    pub const JUDGE_ALLOWANCE: f64 = 1.5;

    /// The time limit in whole seconds: the slowest run of any submission times
    /// [`Self::AC_TO_TIME_LIMIT`] and [`Self::JUDGE_ALLOWANCE`], rounded up to the 1 s
    /// resolution the formats use by default.
    pub fn limit_seconds(self) -> u32 {
        let slowest = self.slowest_ac.max(self.slowest_run);
        (slowest * Self::AC_TO_TIME_LIMIT * Self::JUDGE_ALLOWANCE)
            .ceil()
            .max(1.0) as u32
    }
}

/// A whole problem, format-free.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The short name (lower-case letters and digits), DOMjudge's and Polygon's id.
    pub short_name: Cow<'static, str>,
    /// The full name.
    pub name: Cow<'static, str>,
    /// Where the problem comes from.
    pub source: Cow<'static, str>,
    /// The fixed uuid.
    pub uuid: Cow<'static, str>,
    /// Comment lines (each starting `# `) put at the top of the metadata files.
    pub header: Cow<'static, str>,
    /// The legacy `problem.yaml`, whole.
    pub legacy_yaml: String,
    /// The statement (LaTeX, `problem.en.tex`).
    pub statement: Cow<'static, str>,
    /// The memory limit in MiB, when not the judge's default.
    pub memory: Option<u32>,
    /// The arguments of the default output validator (`case_sensitive`, ...).
    pub output_args: &'static [&'static str],
    /// The input validator's file name and source.
    pub validator: (Cow<'static, str>, Cow<'static, str>),
    /// The answer validator's file name and source (2025-09 only).
    pub answer_validator: (Cow<'static, str>, Cow<'static, str>),
    /// The test cases, samples first.
    pub cases: Vec<Case>,
    /// The inputs the validator must reject.
    pub invalid_inputs: Vec<Invalid>,
    /// Outputs the checker must accept or reject.
    pub outputs: Vec<super::nearmiss::OutputCase>,
    /// Polygon's validator, written against testlib.
    pub polygon_validator: Cow<'static, str>,
    /// Polygon's checker, written against testlib.
    pub polygon_checker: Cow<'static, str>,
    /// The submissions, accepted first.
    pub submissions: Vec<Submission>,
    /// Programs written apart from the package's own (a right one and a wrong one), which
    /// the DOMjudge package gives the jury outside the verdict folders.
    pub independent: Vec<Submission>,
    /// The time limit's measure.
    pub timing: Timing,
}

impl Problem {
    /// The package in `format`.
    pub fn render(&self, format: Format) -> Package {
        match format {
            Format::Legacy => self.legacy(),
            Format::V2025_09 => self.v2025_09(),
            Format::Domjudge => self.domjudge(),
            Format::Polygon => super::polygon::render(self),
        }
    }

    /// The legacy files every Kattis-like layout shares: data with `.desc` files, the
    /// statement in `problem_statement/`, the validator and the submissions.
    fn legacy(&self) -> Package {
        let mut p = Package::default();
        p.add("problem.yaml", self.legacy_yaml.as_str());
        // The legacy problem.yaml has no field for a time limit: Kattis and DOMjudge read a
        // fixed one from `.timelimit` (seconds), problemtools checks against it with
        // `--fixed_timelim`. It is the limit every other format states.
        p.add(".timelimit", format!("{}\n", self.timing.limit_seconds()));
        p.add(
            "problem_statement/problem.en.tex",
            self.statement.as_bytes(),
        );
        for c in &self.cases {
            p.add_case(c.group, &c.name, &c.input, &c.answer, &c.desc);
        }
        p.add(
            format!("input_validators/{}", self.validator.0),
            self.validator.1.as_bytes(),
        );
        for s in &self.submissions {
            p.add(
                format!("submissions/{}/{}", s.folder(), s.file),
                s.source.as_str(),
            );
        }
        p
    }

    fn v2025_09(&self) -> Package {
        let mut p = Package::default();
        p.add("problem.yaml", self.problem_yaml_2025_09());
        p.add("statement/problem.en.tex", self.statement.as_bytes());
        let args: Vec<&str> = self.output_args.to_vec();
        p.add(
            "data/test_group.yaml",
            format!(
                "# The answers are compared by the default output validator with these flags.\n\
                 output_validator_args: [{}]\n",
                args.join(", ")
            ),
        );
        for c in &self.cases {
            let at = format!("data/{}", c.path());
            p.add(format!("{at}.in"), c.input.as_slice());
            p.add(format!("{at}.ans"), c.answer.as_slice());
            p.add(
                format!("{at}.yaml"),
                format!("description: {}\n", yaml_string(c.desc.trim_end())),
            );
        }
        for i in &self.invalid_inputs {
            let at = format!("data/invalid_input/{}", i.name);
            p.add(format!("{at}.in"), i.input.as_slice());
            p.add(
                format!("{at}.yaml"),
                format!("description: {}\n", yaml_string(&i.why)),
            );
        }
        for o in &self.outputs {
            let kind = if o.accepted {
                "valid_output"
            } else {
                "invalid_output"
            };
            let at = format!("data/{kind}/{}", o.name);
            p.add(format!("{at}.in"), o.input.as_slice());
            p.add(format!("{at}.ans"), o.answer.as_slice());
            p.add(format!("{at}.out"), o.output.as_slice());
            p.add(
                format!("{at}.yaml"),
                format!("description: {}\n", yaml_string(&o.why)),
            );
        }
        p.add(
            format!("input_validators/{}", self.validator.0),
            self.validator.1.as_bytes(),
        );
        p.add(
            format!("answer_validators/{}", self.answer_validator.0),
            self.answer_validator.1.as_bytes(),
        );
        for s in &self.submissions {
            p.add(
                format!("submissions/{}/{}", s.folder(), s.file),
                s.source.as_str(),
            );
        }
        p.add("submissions/submissions.yaml", self.submissions_yaml());
        p
    }

    /// `problem.yaml` of version 2025-09.
    fn problem_yaml_2025_09(&self) -> String {
        let mut y = String::from(&*self.header);
        let _ = write!(
            y,
            "problem_format_version: 2025-09\n\
             type: pass-fail\n\
             name: {}\n\
             uuid: {}\n\
             source: {}\n\
             license: unknown\n\
             limits:\n\
             \x20 # The slowest accepted run takes {:.2} s on the slowest case, the slowest run of\n\
             \x20 # any submission {:.2} s; the limit is {} times that, rounded up to a second.\n\
             \x20 time_multipliers:\n\
             \x20   ac_to_time_limit: {:.1}\n\
             \x20   time_limit_to_tle: {:.1}\n\
             \x20 time_limit: {}\n",
            yaml_string(&self.name),
            self.uuid,
            yaml_string(&self.source),
            self.timing.slowest_ac,
            self.timing.slowest_run,
            Timing::AC_TO_TIME_LIMIT * Timing::JUDGE_ALLOWANCE,
            Timing::AC_TO_TIME_LIMIT,
            Timing::TIME_LIMIT_TO_TLE,
            self.timing.limit_seconds(),
        );
        if let Some(m) = self.memory {
            let _ = writeln!(y, "  memory: {m}");
        }
        y
    }

    /// `submissions/submissions.yaml`: what each submission must get, case by case where the
    /// wrong answers are known.
    fn submissions_yaml(&self) -> String {
        let mut y = String::from(
            "# What each submission must get. The folders say it for the whole of the data\n\
             # (accepted: AC everywhere; wrong_answer: AC or WA, WA at least once); under each\n\
             # wrong submission, the cases it must fail (WA) and, when its answers are known\n\
             # board by board, the cases it must pass (AC).\n",
        );
        for s in &self.submissions {
            if let Some(bug) = &s.bug {
                let _ = writeln!(y, "# {bug}");
            }
            let _ = writeln!(y, "{}/{}:", s.folder(), s.file);
            match s.verdict {
                Verdict::Accepted => {
                    y.push_str("  model_solution: true\n  permitted: [AC]\n");
                }
                Verdict::WrongAnswer => {
                    y.push_str("  permitted: [AC, WA]\n  required: [WA]\n");
                    for c in &self.cases {
                        let path = c.path();
                        let v = if s.fails_on.contains(&path) {
                            "WA"
                        } else if s.fails_only_there {
                            "AC"
                        } else {
                            continue;
                        };
                        let _ = writeln!(y, "  {path}:\n    permitted: [{v}]");
                    }
                }
            }
        }
        y
    }

    fn domjudge(&self) -> Package {
        let mut p = self.legacy();
        p.add(
            "domjudge-problem.ini",
            format!(
                "; Read by DOMjudge's problem import (problem.yaml gives the rest): the problem's\n\
                 ; external id and short name in the contest, its name and its time limit in seconds.\n\
                 externalid = {short}\n\
                 short-name = {short}\n\
                 name = {}\n\
                 timelimit = {}\n",
                self.name,
                self.timing.limit_seconds(),
                short = self.short_name,
            ),
        );
        for s in &self.submissions {
            p.add(
                format!("submissions/{}/{}", s.folder(), s.file),
                expected_results(s),
            );
        }
        // Outside the verdict folders the tag alone says what the program must get.
        for s in &self.independent {
            p.add(
                format!("submissions/{INDEPENDENT_DIR}/{}", s.file),
                expected_results(s),
            );
        }
        p
    }
}

/// The folder of the DOMjudge package's `submissions/` that holds the programs written apart
/// from the package's own, each with its `@EXPECTED_RESULTS@` tag.
pub const INDEPENDENT_DIR: &str = "independent";

/// DOMjudge's result name for a verdict.
pub fn domjudge_result(v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => "CORRECT",
        Verdict::WrongAnswer => "WRONG-ANSWER",
    }
}

/// A submission's source with DOMjudge's `@EXPECTED_RESULTS@` tag as a comment near the top
/// (after a Python program's `#!` line, which must stay first).
pub fn expected_results(s: &Submission) -> String {
    let tag = format!("@EXPECTED_RESULTS@: {}", domjudge_result(s.verdict));
    if s.is_python() {
        let (first, rest) = s.source.split_once('\n').unwrap_or((&s.source, ""));
        if first.starts_with("#!") {
            format!("{first}\n# {tag}\n{rest}")
        } else {
            format!("# {tag}\n{}", s.source)
        }
    } else {
        format!("// {tag}\n{}", s.source)
    }
}

#[cfg(test)]
mod tests {
    use super::Timing;

    /// Every run, accepted or wrong, stays out of the band where BAPCtools calls a verdict
    /// sensitive to the limit, even on a judge [`Timing::JUDGE_ALLOWANCE`] times slower.
    #[test]
    fn the_limit_clears_every_run_on_a_slower_judge() {
        for (ac, run) in [
            (0.05, 0.05),
            (0.4, 0.4),
            (0.75, 1.05),
            (0.8, 0.3),
            (3.3, 4.9),
        ] {
            let t = Timing {
                slowest_ac: ac,
                slowest_run: run,
            };
            let limit = f64::from(t.limit_seconds());
            let slowest = f64::max(ac, run) * Timing::JUDGE_ALLOWANCE;
            assert!(
                slowest <= limit / Timing::AC_TO_TIME_LIMIT,
                "{t:?}: {limit} s"
            );
            assert!(
                limit - 1.0 < slowest * Timing::AC_TO_TIME_LIMIT,
                "{t:?}: {limit} s"
            );
        }
    }
}
