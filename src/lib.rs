//! `tomek`: an exhaustive state-space analyzer and test-data generator for Tic-Tac-Toe-Tomek
//! (Google Code Jam 2013, Qualification Round A) and Four in a row (SPOJ FOUROW).
//!
//! Each concept has one module:
//! - [`board`]: the board type, players and statuses;
//! - [`rules`]: lines, winning and moving, for any small geometry;
//! - [`output`]: atomic files and table/JSON/CSV output;
//! - [`progress`]: progress bars that stay quiet off a terminal.

pub mod board;
pub mod codejam;
pub mod eval;
pub mod output;
pub mod progress;
pub mod rules;
