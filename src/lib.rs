//! `tomek`: an exhaustive state-space analyzer and test-data generator for Tic-Tac-Toe-Tomek
//! (Google Code Jam 2013, Qualification Round A) and Four in a row (SPOJ FOUROW).
//!
//! Each concept has one module:
//! - [`board`]: the board type, players and statuses;
//! - [`audit`]: evaluators held to the labels of play on every reachable board;
//! - [`eval`]: four independent evaluators of a board's status;
//! - [`codejam`]: the Code Jam input and answer formats, read and written as streams;
//! - [`fourow`]: Four in a row: a bitboard position, the judge, input files and a generator;
//! - [`solver`]: external solver programs run on labelled boards and held to the labels;
//! - [`rules`]: lines, winning and moving, for any small geometry;
//! - [`enumerate`]: the reachable boards streamed in a fixed order, and their record formats;
//! - [`engine`]: the layered enumeration engine shared by both games;
//! - [`rank`]: the dense perfect index of a ply's boards;
//! - [`reach`]: whether a board can arise in play, decided from the board alone;
//! - [`space`]: every reachable Tomek board of every setup, labelled by play;
//! - [`sample`]: test data drawn from the reachable boards by profile, seeded and streamed;
//! - [`mutants`]: a catalogue of wrong evaluators that test data must catch;
//! - [`stats`]: counts, games, values and orbits of the state space;
//! - [`symmetry`]: the automorphism group of the lines, found by search;
//! - [`validate`]: the judge's validator of inputs, with what a file covers;
//! - [`check`]: the checker of a contestant's answers, in the testlib convention;
//! - [`output`]: atomic files and table/JSON/CSV output;
//! - [`progress`]: progress bars that stay quiet off a terminal.

pub mod audit;
pub mod board;
pub mod check;
pub mod codejam;
pub mod engine;
pub mod enumerate;
pub mod escape;
pub mod eval;
pub mod fourow;
pub mod mutants;
pub mod output;
pub mod progress;
pub mod rank;
pub mod reach;
pub mod rules;
pub mod sample;
pub mod solver;
pub mod space;
pub mod stats;
pub mod symmetry;
pub mod validate;
