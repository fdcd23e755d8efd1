//! The engine against published figures: classic tic-tac-toe and 4×4 tic-tac-toe without a
//! `T`, whose numbers were computed elsewhere by other methods.

use tomek::rules::Geometry;
use tomek::stats::{Sections, analyze};
use tomek::symmetry::Symmetry;

#[test]
fn four_by_four_without_t_games_match_oeis_a061526() {
    let g = Geometry::new(4, 4, 4, false).unwrap();
    let s = analyze(
        &g,
        &g.setups(),
        Sections {
            games: true,
            values: false,
            symmetry: None,
        },
    );
    assert_eq!(s.total.games.unwrap().total(), 15_038_733_958_272);
}

#[test]
fn four_by_four_without_t_terminal_orbits_match_oeis_a317576() {
    let g = Geometry::new(4, 4, 4, false).unwrap();
    let s = analyze(
        &g,
        &g.setups(),
        Sections {
            games: false,
            values: false,
            symmetry: Some(Symmetry::Dihedral),
        },
    );
    let orbits = s.orbits.unwrap();
    assert_eq!(orbits.group_order, 8);
    let terminal: Vec<u64> = orbits.boards_by_ply[7..=16]
        .iter()
        .map(|b| b.terminal())
        .collect();
    assert_eq!(
        terminal,
        [280, 642, 4942, 6770, 20286, 16042, 20998, 7970, 3774, 1059]
    );
    assert!(orbits.boards_by_ply[..7].iter().all(|b| b.terminal() == 0));
}
