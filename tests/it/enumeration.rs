//! The Tomek state space, three ways: the tree walk, the memo walks (dense and hashbrown), and
//! the reachability predicate over every filling of every setup. All must agree exactly.

use rayon::prelude::*;
use std::sync::Arc;
use tomek::tictactoe::board::Board;
use tomek::tictactoe::reach;
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::space::{SetupGame, SetupSpace, Space, explore_hashed};

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn tree_walk_and_memo_walks_agree_on_every_setup() {
    let g = Geometry::tomek();
    g.setups().par_iter().for_each(|&t| {
        let tree = SetupSpace::explore(g, t);
        let memo = SetupSpace::explore_memo(g, t);
        assert_eq!(tree.counts, memo.counts, "setup {t:#x}");
        // Same boards, same labels, slot by slot.
        for (a, b) in tree.plies.iter().zip(&memo.plies) {
            assert!(a.slots().eq(b.slots()), "setup {t:#x} ply {}", a.index.ply);
        }
    });
    // The hashbrown memo on the largest setup and on one of each kind of T square.
    for t in [0u16, 1 << 0, 1 << 1, 1 << 5] {
        assert_eq!(
            explore_hashed(g, t),
            SetupSpace::explore(g, t).counts,
            "setup {t:#x}"
        );
    }
}

#[test]
fn reachability_predicate_equals_the_enumerated_set() {
    let g = Arc::new(Geometry::tomek().clone());
    let space = Space::explore(g.clone());
    assert_eq!(space.len(), 61_089_795);
    let full = g.full();
    let mismatches: u64 = space
        .setups
        .par_iter()
        .map(|setup| {
            let t = setup.t;
            let mut bad = 0u64;
            let mut checked = 0u64;
            // Every filling of the free squares with X, O or nothing: O ranges over the
            // subsets of the squares X leaves free.
            for x in 0..=u16::MAX {
                if x & t != 0 {
                    continue;
                }
                let free = full & !x & !t;
                let mut o = free;
                loop {
                    let b = Board { x, o, t };
                    let predicate = reach::check(&g, b).ok();
                    let played = setup.status(b);
                    if predicate != played {
                        bad += 1;
                    }
                    checked += 1;
                    if o == 0 {
                        break;
                    }
                    o = (o - 1) & free;
                }
            }
            let expected = if t == 0 { 3u64.pow(16) } else { 3u64.pow(15) };
            assert_eq!(checked, expected);
            bad
        })
        .sum();
    assert_eq!(mismatches, 0);
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn orbit_counts_agree_with_burnside() {
    // Burnside: the number of classes is the average, over the group, of the boards each
    // symmetry leaves unchanged. A second method for the counts up to symmetry.
    use tomek::outcome::Status;
    use tomek::tictactoe::stats::{Sections, analyze};
    use tomek::tictactoe::symmetry::{Symmetry, automorphisms};
    let g = Arc::new(Geometry::tomek().clone());
    let group = automorphisms(&g);
    let fixed: Vec<[u64; 4]> = g
        .setups()
        .par_iter()
        .map(|&t| {
            let keep: Vec<_> = group.iter().filter(|p| p.apply(t) == t).collect();
            let mut c = [0u64; 4];
            let mut count = |b: Board, s: Status| {
                c[s.index()] += keep.iter().filter(|p| p.board(b) == b).count() as u64;
            };
            tomek::engine::explore_tree(
                &SetupGame { geometry: &g, t },
                u32::MAX,
                |_, _, open, over| {
                    open.iter().flatten().for_each(|&b| count(b, Status::Open));
                    over.iter().for_each(|&(b, s)| count(b, s));
                },
            );
            c
        })
        .collect();
    let stats = analyze(
        &g,
        &g.setups(),
        Sections {
            games: false,
            values: false,
            symmetry: Some(Symmetry::Full),
        },
    );
    let orbits = stats.orbits.unwrap();
    for s in Status::ALL {
        let sum: u64 = fixed.iter().map(|c| c[s.index()]).sum();
        assert_eq!(sum % group.len() as u64, 0);
        assert_eq!(orbits.boards[s], sum / group.len() as u64, "{s:?}");
    }
}
