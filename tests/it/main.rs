//! The integration tests: one binary, a module per area, one shared harness, and the published
//! figures in one module that names their sources.

mod harness;
mod published;

mod audit_solver;
mod check_cli;
mod cli_convention;
mod docs;
mod enumerate_cli;
mod enumeration;
mod evaluators;
mod explain;
mod fourow;
mod fourow_bdd;
mod fourow_count;
mod fourow_reference;
mod fourow_saved;
mod fourow_solve;
mod fourow_values;
mod games;
mod generate;
mod generate_cli;
mod killer_sets;
mod package;
mod package_family;
mod pipes;
mod plots;
mod problems;
mod problems_4x4;
#[cfg(feature = "sql")]
mod query;
#[cfg(feature = "sql")]
mod query_problem;
mod setter;
mod solve_cli;
mod validate_cli;
#[cfg(feature = "web")]
mod web;
#[cfg(feature = "web")]
mod web_solution;
mod writes;
