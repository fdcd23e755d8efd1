//! The Polygon full package of a problem: `problem.xml` (names, statement, one testset with
//! its time and memory limits, tests and groups, the checker and the validator with their own
//! tests, the tagged solutions), the statement in Polygon's sections
//! (`statement-sections/english/`: `name.tex`, `legend.tex`, `input.tex`, `output.tex` and the
//! examples) and assembled (`statements/english/problem.tex` in Polygon's `olymp.sty` form,
//! with `problem-properties.json`), `files/` with the validator and the checker written
//! against testlib, `solutions/`, and `tests/` with the answers (`NN` and `NN.a`).
//!
//! The groups: `samples` (the sample, full feedback, no points) and one group per kind of
//! secret data (`killer`, `edge`, ...), each judged as a whole with ICPC feedback (the
//! verdict of the first failed test), as Polygon writes a testset with groups.
//!
//! `testlib.h` itself is not written: Polygon provides it to every problem, and a converter
//! such as p2d brings its own. `files/` names it as a resource, as Polygon does.

use super::Package;
use super::format::{Problem, Verdict};
use std::fmt::Write as _;

/// XML text with `&`, `<`, `>` and `"` escaped.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A test pattern's file name: two digits at least, as Polygon numbers them.
fn number(i: usize) -> String {
    format!("{i:02}")
}

/// Polygon's language of a source file.
fn language(file: &str) -> &'static str {
    if file.ends_with(".py") {
        "python.3"
    } else {
        "cpp.g++17"
    }
}

/// A statement's parts, as Polygon keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sections {
    /// The problem's name.
    pub name: String,
    /// The story and the rules, before the input section.
    pub legend: String,
    /// The input section's text.
    pub input: String,
    /// The output section's text.
    pub output: String,
}

/// Splits a statement of the Kattis form (`\problemname{...}`, the legend,
/// `\section*{Input}`, `\section*{Output}`) into Polygon's sections. `None` when a part is
/// missing.
pub fn sections(statement: &str) -> Option<Sections> {
    let rest = statement.trim_start().strip_prefix("\\problemname{")?;
    let (name, rest) = rest.split_once('}')?;
    let (legend, rest) = rest.split_once("\\section*{Input}")?;
    let (input, output) = rest.split_once("\\section*{Output}")?;
    let part = |s: &str| format!("{}\n", s.trim());
    Some(Sections {
        name: name.to_string(),
        legend: part(legend),
        input: part(input),
        output: part(output),
    })
}

/// The statement's files: the sections, the examples, the assembled `problem.tex` and
/// `problem-properties.json`.
fn statement(p: &mut Package, problem: &Problem, s: &Sections, time_ms: u32, memory: u64) {
    let at = "statement-sections/english";
    p.add(format!("{at}/name.tex"), format!("{}\n", s.name));
    p.add(format!("{at}/legend.tex"), s.legend.as_str());
    p.add(format!("{at}/input.tex"), s.input.as_str());
    p.add(format!("{at}/output.tex"), s.output.as_str());
    let samples: Vec<&super::format::Case> = problem
        .cases
        .iter()
        .filter(|c| c.group == "sample")
        .collect();
    let mut examples = String::new();
    let mut sample_tests = Vec::new();
    for (i, c) in samples.iter().enumerate() {
        let file = format!("example.{}", number(i + 1));
        p.add(format!("{at}/{file}"), c.input.as_slice());
        p.add(format!("{at}/{file}.a"), c.answer.as_slice());
        let (input, answer) = (
            String::from_utf8_lossy(&c.input),
            String::from_utf8_lossy(&c.answer),
        );
        let _ = writeln!(examples, "\\exmp{{{input}}}{{{answer}}}%");
        sample_tests.push(format!(
            "{{\"input\": {}, \"output\": {}, \"inputFile\": \"{file}\", \"outputFile\": \"{file}.a\"}}",
            super::quoted(&input),
            super::quoted(&answer)
        ));
    }
    let seconds = time_ms.div_ceil(1000);
    let unit = if seconds == 1 { "second" } else { "seconds" };
    p.add(
        "statements/english/problem.tex",
        format!(
            "\\begin{{problem}}{{{name}}}{{standard input}}{{standard output}}{{{seconds} {unit}}}{{{mib} megabytes}}\n\n\
             {legend}\n\\InputFile\n\n{input}\n\\OutputFile\n\n{output}\n\\Examples\n\n{examples}\n\\end{{problem}}\n",
            name = s.name,
            mib = memory >> 20,
            legend = s.legend,
            input = s.input,
            output = s.output,
        ),
    );
    p.add(
        "statements/english/problem-properties.json",
        format!(
            "{{\n  \"name\": {},\n  \"legend\": {},\n  \"input\": {},\n  \"output\": {},\n  \"notes\": \"\",\n  \
             \"inputFile\": \"stdin\",\n  \"outputFile\": \"stdout\",\n  \"timeLimit\": {time_ms},\n  \
             \"memoryLimit\": {memory},\n  \"language\": \"english\",\n  \"sampleTests\": [\n    {}\n  ]\n}}\n",
            super::quoted(&s.name),
            super::quoted(&s.legend),
            super::quoted(&s.input),
            super::quoted(&s.output),
            sample_tests.join(",\n    "),
        ),
    );
}

/// A test's group in Polygon: `samples` for the sample, else its kind of data.
fn group(c: &super::format::Case) -> &'static str {
    if c.group == "sample" {
        "samples"
    } else {
        c.kind
    }
}

/// The package.
pub fn render(problem: &Problem) -> Package {
    let mut p = Package::default();
    let time_ms = problem.timing.limit_seconds() * 1000;
    let memory = u64::from(problem.memory.unwrap_or(256)) << 20;
    match sections(&problem.statement) {
        Some(s) => statement(&mut p, problem, &s, time_ms, memory),
        // A statement not in sections goes whole (the problems here are all in sections).
        None => p.add(
            "statements/english/problem.tex",
            problem.statement.as_bytes(),
        ),
    }
    p.add("files/validate.cpp", problem.polygon_validator.as_bytes());
    p.add("files/check.cpp", problem.polygon_checker.as_bytes());
    for (i, c) in problem.cases.iter().enumerate() {
        p.add(format!("tests/{}", number(i + 1)), c.input.as_slice());
        p.add(format!("tests/{}.a", number(i + 1)), c.answer.as_slice());
    }
    // The validator's tests: a valid file first (the sample), then every invalid input.
    let mut validator_tests = String::new();
    let sample = problem.cases.first().map(|c| c.input.as_slice());
    let valid = sample.into_iter().map(|s| (s, "valid"));
    let invalid = problem
        .invalid_inputs
        .iter()
        .map(|i| (i.input.as_slice(), "invalid"));
    let mut n_validator = 0;
    for (input, verdict) in valid.chain(invalid) {
        n_validator += 1;
        p.add(
            format!("files/tests/validator-tests/{}", number(n_validator)),
            input,
        );
        let _ = writeln!(
            validator_tests,
            "                        <test verdict=\"{verdict}\"/>"
        );
    }
    // The checker's tests: the output cases.
    let mut checker_tests = String::new();
    for (i, o) in problem.outputs.iter().enumerate() {
        let at = format!("files/tests/checker-tests/{}", number(i + 1));
        p.add(at.clone(), o.input.as_slice());
        p.add(format!("{at}.o"), o.output.as_slice());
        p.add(format!("{at}.a"), o.answer.as_slice());
        let verdict = if o.accepted { "ok" } else { "wrong-answer" };
        let _ = writeln!(
            checker_tests,
            "                    <test verdict=\"{verdict}\"/>"
        );
    }
    let mut solutions = String::new();
    let mut main_given = false;
    for s in &problem.submissions {
        p.add(format!("solutions/{}", s.file), s.source.as_str());
        let tag = match s.verdict {
            Verdict::Accepted if !main_given && !s.is_python() => {
                main_given = true;
                "main"
            }
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong-answer",
        };
        let _ = writeln!(
            solutions,
            "            <solution tag=\"{tag}\">\n                <source path=\"solutions/{}\" type=\"{}\"/>\n            </solution>",
            xml(&s.file),
            language(&s.file)
        );
    }
    let mut tests = String::new();
    let mut groups: Vec<&str> = Vec::new();
    for c in &problem.cases {
        let sample = if c.group == "sample" {
            " sample=\"true\""
        } else {
            ""
        };
        let first_line = c.desc.lines().next().unwrap_or_default();
        let _ = writeln!(
            tests,
            "                <test method=\"manual\" description=\"{}\" group=\"{}\" points=\"0.0\"{sample}/>",
            xml(first_line),
            xml(group(c))
        );
        if !groups.contains(&group(c)) {
            groups.push(group(c));
        }
    }
    let mut group_list = String::new();
    for g in groups {
        let (feedback, points) = if g == "samples" {
            ("complete", "each-test")
        } else {
            ("icpc", "complete-group")
        };
        let _ = writeln!(
            group_list,
            "                <group feedback-policy=\"{feedback}\" name=\"{}\" points=\"0.0\" points-policy=\"{points}\"/>",
            xml(g)
        );
    }
    let xml_text = format!(
        r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<!-- Written by tomek. {source}. -->
<problem revision="1" short-name="{short}">
    <names>
        <name language="english" value="{name}"/>
    </names>
    <statements>
        <statement charset="UTF-8" language="english" path="statements/english/problem.tex" type="application/x-tex"/>
    </statements>
    <judging input-file="" output-file="">
        <!-- The slowest accepted run takes {slowest:.2} s, the slowest run of any submission {slowest_run:.2} s; the limit is {factor} times that, rounded up to a second. -->
        <testset name="tests">
            <time-limit>{time_ms}</time-limit>
            <memory-limit>{memory}</memory-limit>
            <test-count>{test_count}</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
{tests}            </tests>
            <groups>
{group_list}            </groups>
        </testset>
    </judging>
    <files>
        <resources>
            <file path="files/testlib.h" type="h.g++"/>
        </resources>
        <executables>
            <executable>
                <source path="files/validate.cpp" type="cpp.g++17"/>
            </executable>
            <executable>
                <source path="files/check.cpp" type="cpp.g++17"/>
            </executable>
        </executables>
    </files>
    <assets>
        <checker type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
            <testset>
                <test-count>{checker_count}</test-count>
                <input-path-pattern>files/tests/checker-tests/%02d</input-path-pattern>
                <output-path-pattern>files/tests/checker-tests/%02d.o</output-path-pattern>
                <answer-path-pattern>files/tests/checker-tests/%02d.a</answer-path-pattern>
                <tests>
{checker_tests}                </tests>
            </testset>
        </checker>
        <validators>
            <validator>
                <source path="files/validate.cpp" type="cpp.g++17"/>
                <testset>
                    <test-count>{n_validator}</test-count>
                    <input-path-pattern>files/tests/validator-tests/%02d</input-path-pattern>
                    <tests>
{validator_tests}                    </tests>
                </testset>
            </validator>
        </validators>
        <solutions>
{solutions}        </solutions>
    </assets>
</problem>
"#,
        source = xml(&problem.source),
        short = problem.short_name,
        name = xml(&problem.name),
        slowest = problem.timing.slowest_ac,
        slowest_run = problem.timing.slowest_run,
        factor = super::format::Timing::AC_TO_TIME_LIMIT * super::format::Timing::JUDGE_ALLOWANCE,
        test_count = problem.cases.len(),
        checker_count = problem.outputs.len(),
    );
    p.add("problem.xml", xml_text);
    p
}
