//! Complete games counted two ways: the statistics' forward pass over the board graph, and a
//! closed form over finished boards alone.
//!
//! Every order of the stones of a board with no line is a legal game prefix (no subset of
//! its stones holds a line, so play never stops early), so such a board is reached by
//! `x!·o!` move sequences. A won board is reached through each parent left by taking back
//! one of the winner's stones that lie on every winning line, each parent having no line.

use crate::published;
use rayon::prelude::*;
use tomek::outcome::{ByStatus, Player, Status};
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::space::SetupGame;
use tomek::tictactoe::stats::{Sections, analyze};

fn factorial(n: u32) -> u64 {
    (1..=n as u64).product()
}

fn games_by_closed_form(g: &Geometry, t: u16) -> ByStatus<u64> {
    let mut games = ByStatus::default();
    tomek::engine::explore_tree(&SetupGame { geometry: g, t }, u32::MAX, |_, _, _, over| {
        for &(b, s) in over {
            let (x, o) = (b.x.count_ones(), b.o.count_ones());
            let sequences = match s {
                Status::Draw => factorial(x) * factorial(o),
                Status::XWon | Status::OWon => {
                    let w = if s == Status::XWon {
                        Player::X
                    } else {
                        Player::O
                    };
                    let last = (g.line_core(b.counting_for(w)) & b.of(w)).count_ones() as u64;
                    let (px, po) = if w == Player::X {
                        (x - 1, o)
                    } else {
                        (x, o - 1)
                    };
                    last * factorial(px) * factorial(po)
                }
                Status::Open => 0,
            };
            games[s] += sequences;
        }
    });
    games
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn forward_pass_matches_the_closed_form_on_every_setup() {
    let g = Geometry::tomek();
    let stats = analyze(
        g,
        &g.setups(),
        Sections {
            games: true,
            values: false,
            symmetry: None,
        },
    );
    let closed: Vec<ByStatus<u64>> = g
        .setups()
        .par_iter()
        .map(|&t| games_by_closed_form(g, t))
        .collect();
    for (s, c) in stats.setups.iter().zip(&closed) {
        assert_eq!(s.games.unwrap(), *c, "setup {}", s.setup);
    }
}

#[test]
fn closed_form_matches_classic_tic_tac_toe() {
    let g = Geometry::new(3, 3, 3, false).unwrap();
    let games = games_by_closed_form(&g, 0);
    assert_eq!(games.x_won, published::TIC_TAC_TOE.games_x_won);
    assert_eq!(games.o_won, published::TIC_TAC_TOE.games_o_won);
    assert_eq!(games.draw, published::TIC_TAC_TOE.games_drawn);
    assert_eq!(games.open, 0);
}
