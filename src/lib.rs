//! `tomek`: an exhaustive state-space analyzer and test-data generator for Tic-Tac-Toe-Tomek
//! (Google Code Jam 2013, Qualification Round A) and Four in a row (SPOJ FOUROW).
//!
//! The layers, from the bottom up:
//! - [`outcome`]: players, statuses and [`outcome::ByStatus`], shared by everything above;
//! - [`cover`]: exact set cover, which the killer sets of both games' test data are;
//! - [`engine`]: the layered enumeration engine shared by both games (memo walks, tree walks);
//! - [`tictactoe`]: Tic-Tac-Toe-Tomek: the board, rules and evaluators, the state space and
//!   its statistics, and the judge's tools (Code Jam format, sampling, mutants, validator,
//!   checker, solver audit);
//! - [`fourow`]: Four in a row: a bitboard position, the judge, input files, a generator and
//!   the position counts;
//! - [`package`]: both problems as Kattis problem packages, for judges;
//! - [`sql`] (feature `sql`): SQL over every reachable board by Apache DataFusion, and the
//!   boards exported as Parquet;
//! - [`interrupt`]: the one handler of Ctrl-C and `kill`, which removes unfinished files;
//! - [`lines`]: reading text line by line in bounded memory, for the judges' readers;
//! - [`output`]: files replaced atomically, the table/JSON/CSV formats, and the escaping of
//!   input text echoed to a terminal.
//!
//! The library draws nothing on the terminal: long work reports progress through callbacks,
//! and the `tomek` command draws the bars. With `default-features = false` it builds without
//! the command line's crates (clap, indicatif, anyhow) and the SQL engine.
//!
//! The engine counts classic tic-tac-toe (3×3, three in a row, no `T`): 5,478 reachable
//! boards, 958 of them finished, and 255,168 complete games.
//!
//! ```
//! use tomek::engine;
//! use tomek::outcome::ByStatus;
//! use tomek::tictactoe::rules::Geometry;
//! use tomek::tictactoe::space::SetupGame;
//!
//! let geometry = Geometry::new(3, 3, 3, false).unwrap();
//! let game = SetupGame { geometry: &geometry, t: 0 };
//! let by_ply = engine::count_tree(&game, 4);
//! let boards = ByStatus::sum(&by_ply);
//! assert_eq!(boards.total(), 5_478);
//! assert_eq!(boards.into_array(), [626, 316, 16, 4_520]);
//! // Boards of the last ply are all finished: the 9th move fills the board.
//! assert_eq!(by_ply[9].open, 0);
//! ```

pub mod cover;
pub mod engine;
pub mod fourow;
pub mod interrupt;
pub mod lines;
pub mod outcome;
pub mod output;
pub mod package;
pub mod problem;
#[cfg(feature = "sql")]
pub mod sql;
pub mod tictactoe;
#[cfg(feature = "web")]
pub mod web;
