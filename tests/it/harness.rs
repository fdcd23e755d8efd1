//! What every area's tests share: the `tomek` binary as a command, and paths into the project.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The path of the `tomek` binary under test.
pub const TOMEK: &str = env!("CARGO_BIN_EXE_tomek");

/// The `tomek` binary, ready for arguments.
pub fn tomek() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("tomek")
}

/// Runs `tomek --quiet ARGS`, asserts success, and returns its standard output.
pub fn stdout_of(args: &[&str]) -> String {
    stdout_of_command(tomek().arg("--quiet").args(args))
}

/// Runs a command of tomek's, asserts success, and returns its standard output.
pub fn stdout_of_command(command: &mut Command) -> String {
    let out = command.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("tomek prints UTF-8")
}

/// A path inside the project.
pub fn project(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A committed file of `generated/`.
pub fn generated(name: &str) -> PathBuf {
    project("generated").join(name)
}

/// The bytes of a file, naming it if it cannot be read.
pub fn read(p: impl AsRef<Path>) -> Vec<u8> {
    let p = p.as_ref();
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}
