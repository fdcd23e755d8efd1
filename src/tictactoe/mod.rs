//! Tic-Tac-Toe-Tomek (Google Code Jam 2013, Qualification Round A): the game, its state space,
//! and the judge's tools.
//!
//! The game: [`board`] (three masks over the squares), [`rules`] (lines, winning, moving, for
//! any board of up to 16 squares), [`eval`] (four independent evaluators), [`reach`] (whether
//! play can reach a board), [`symmetry`] (the automorphisms of the lines).
//!
//! The state space: [`rank`] (a dense index of each ply's boards), [`space`] (every reachable
//! board of every setup, labelled by play), [`stats`] (counts, games, values, orbits),
//! [`enumerate`] (the boards streamed in a fixed order), [`table`] (every board as a row
//! of columns, for SQL and Parquet), [`audit`] (the evaluators held to the
//! labels), [`explain`] (everything about one board: reachability, perfect play, games through
//! it, its orbit).
//!
//! The judge's tools: [`codejam`] (the input and answer formats), [`sample`] (test data drawn
//! by profile), [`mutants`] (wrong evaluators that test data must catch), [`validate`] (the
//! input validator), [`check`] (the output checker), [`solver`] (external solvers audited
//! against the labels).

pub mod audit;
pub mod board;
pub mod check;
pub mod codejam;
pub mod enumerate;
pub mod eval;
pub mod explain;
pub mod mutants;
pub mod rank;
pub mod reach;
pub mod rules;
pub mod sample;
pub mod solver;
pub mod space;
pub mod stats;
pub mod subtree;
pub mod symmetry;
pub mod table;
pub mod validate;
