//! Published figures, each with its source, and the engine held to them. Every other test that
//! needs one of these numbers takes it from here.

use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::space::{SetupSpace, Space, explore_hashed};
use tomek::tictactoe::stats::{Sections, analyze};
use tomek::tictactoe::symmetry::Symmetry;

/// Figures of classic tic-tac-toe (3×3, three in a row).
pub struct TicTacToe {
    /// Positions reachable in play, the empty board included.
    pub boards: u64,
    /// Of those, won by X, won by O, drawn (full with no line), and still open.
    pub boards_by_status: [u64; 4],
    /// Complete games (move sequences) won by X.
    pub games_x_won: u64,
    /// Complete games won by O.
    pub games_o_won: u64,
    /// Complete games ending full with no line.
    pub games_drawn: u64,
    /// Reachable positions up to the 8 rotations and reflections.
    pub orbits: u64,
}

/// Classic tic-tac-toe: 5,478 legal positions (958 of them terminal: 626 won by X, 316 by O,
/// 16 drawn), 255,168 games (131,184 won by X, 77,904 by O, 46,080 drawn) and 765 essentially
/// different positions. Source: the combinatorics of the game as published in the
/// encyclopedia article "Tic-tac-toe" (Wikipedia), from Schaefer's enumeration.
pub const TIC_TAC_TOE: TicTacToe = TicTacToe {
    boards: 5_478,
    boards_by_status: [626, 316, 16, 4_520],
    games_x_won: 131_184,
    games_o_won: 77_904,
    games_drawn: 46_080,
    orbits: 765,
};

/// 4×4 tic-tac-toe (four in a row, no `T`): complete games. Source: OEIS A061526.
pub const A061526_GAMES_4X4: u64 = 15_038_733_958_272;

/// 4×4 tic-tac-toe: terminal positions up to the 8 rotations and reflections, after 7 to 16
/// moves (none before). Source: OEIS A317576.
pub const A317576_TERMINAL_ORBITS_4X4: [u64; 10] =
    [280, 642, 4942, 6770, 20286, 16042, 20998, 7970, 3774, 1059];

/// Connect Four (7×6): distinct positions after 0 to 42 plies, the whole game. Source: OEIS
/// A212693 (Edelkamp and Kissmann's counts, confirmed by Tromp).
pub const A212693: [u64; 43] = [
    1,
    7,
    49,
    238,
    1120,
    4263,
    16422,
    54859,
    184275,
    558186,
    1662623,
    4568683,
    12236101,
    30929111,
    75437595,
    176541259,
    394591391,
    858218743,
    1763883894,
    3568259802,
    6746155945,
    12673345045,
    22010823988,
    38263228189,
    60830813459,
    97266114959,
    140728569039,
    205289508055,
    268057611944,
    352626845666,
    410378505447,
    479206477733,
    488906447183,
    496636890702,
    433471730336,
    370947887723,
    266313901222,
    183615682381,
    104004465349,
    55156010773,
    22695896495,
    7811825938,
    1459332899,
];

/// Connect Four (7×6): legal positions over all 43 plies, the sum of [`A212693`]. Source: OEIS
/// A212693 and Tromp's table of position counts by board size.
pub const CONNECT_FOUR_7X6_TOTAL: u64 = 4_531_985_219_092;

/// Connect Four: legal positions over all plies by board (columns, rows, total). Source: John
/// Tromp's table of position counts by board size ("John's Connect Four Playground").
pub const CONNECT_FOUR_TOTALS: [(u32, u32, u64); 12] = [
    (4, 4, 161_029),
    (5, 4, 3_945_711),
    (6, 4, 94_910_577),
    (7, 4, 2_265_792_710),
    (4, 5, 1_706_255),
    (5, 5, 69_763_700),
    (4, 6, 15_835_683),
    (3, 6, 235_781),
    (2, 6, 1_571),
    (7, 1, 750),
    (7, 2, 189_648),
    (7, 3, 27_441_956),
];

#[test]
fn classic_tic_tac_toe_figures() {
    let g = Geometry::new(3, 3, 3, false).unwrap();
    let s = analyze(&g, &g.setups(), Sections::ALL);
    let p = TIC_TAC_TOE;
    assert_eq!(s.total.boards.total(), p.boards);
    assert_eq!(s.total.boards.into_array(), p.boards_by_status);
    assert_eq!(
        s.total.boards.terminal(),
        p.boards_by_status[..3].iter().sum::<u64>()
    );
    let games = s.total.games.unwrap();
    assert_eq!(
        (games.x_won, games.o_won, games.draw),
        (p.games_x_won, p.games_o_won, p.games_drawn)
    );
    assert_eq!(games.total(), p.games_x_won + p.games_o_won + p.games_drawn);
    assert_eq!(s.setups[0].value.as_deref(), Some("Draw"));
    let orbits = s.orbits.unwrap();
    assert_eq!(orbits.group_order, 8);
    assert_eq!(orbits.boards.total(), p.orbits);
}

#[test]
fn classic_tic_tac_toe_positions_by_three_walks() {
    let g = std::sync::Arc::new(Geometry::new(3, 3, 3, false).unwrap());
    let space = Space::explore(g.clone());
    assert_eq!(space.len(), TIC_TAC_TOE.boards);
    let t = space.setups[0].totals();
    assert_eq!(t.into_array(), TIC_TAC_TOE.boards_by_status);
    assert_eq!(explore_hashed(&g, 0), space.setups[0].counts);
    assert_eq!(
        SetupSpace::explore_memo(&g, 0).counts,
        space.setups[0].counts
    );
}

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
    assert_eq!(s.total.games.unwrap().total(), A061526_GAMES_4X4);
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
    assert_eq!(terminal, A317576_TERMINAL_ORBITS_4X4);
    assert!(orbits.boards_by_ply[..7].iter().all(|b| b.terminal() == 0));
}

#[test]
fn the_connect_four_terms_add_up_to_the_published_total() {
    assert_eq!(A212693.iter().sum::<u64>(), CONNECT_FOUR_7X6_TOTAL);
}

/// Who wins Four in a row with perfect play on the boards up to 5×5 (and 4×6), by columns and
/// rows: 1 when the first player wins, 0 for a draw, -1 when the second player wins. Source:
/// John Tromp's results by board size, as tabulated (width by height) in the README of
/// github.com/ChristopheSteininger/c4: 4×4, 5×4, 4×5, 5×5 and 4×6 are draws, 6×4 is won by
/// the second player.
pub const FOUROW_OUTCOMES: [(u32, u32, i32); 6] = [
    (4, 4, 0),
    (5, 4, 0),
    (4, 5, 0),
    (5, 5, 0),
    (6, 4, -1),
    (4, 6, 0),
];
