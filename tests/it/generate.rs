//! The sampling library on the full state space: uniform draws match the enumerated shares,
//! every case is reachable and labelled as play labels it, the bytes do not depend on the
//! thread count, and the edge and killer sets hold what they promise.

use std::sync::{Arc, OnceLock};
use tomek::outcome::{Player, Status};
use tomek::tictactoe::board::Board;
use tomek::tictactoe::eval::{Evaluator, Table};
use tomek::tictactoe::mutants::Mutant;
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::sample::{self, Generator, Profile, Spec, lines_won};
use tomek::tictactoe::space::Space;

fn space() -> &'static Space {
    static S: OnceLock<Space> = OnceLock::new();
    S.get_or_init(|| Space::explore(Arc::new(Geometry::tomek().clone())))
}

/// The killer set of every setup, found once: finding it reads every reachable board.
fn killer() -> &'static sample::KillerSet {
    static K: OnceLock<sample::KillerSet> = OnceLock::new();
    K.get_or_init(|| sample::killer_boards(space(), &Geometry::tomek().setups()))
}

fn spec(profile: Profile, cases: u64, seed: u64) -> Spec {
    Spec {
        profile,
        cases,
        seed,
        setups: Geometry::tomek().setups(),
    }
}

/// Upper quantile of the chi-square distribution with `df` degrees of freedom at the standard
/// normal quantile `z` (Wilson–Hilferty), good to a fraction of a percent for df ≥ 10.
fn chi_square_bound(df: f64, z: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Pearson's statistic of observed counts against expected shares.
fn chi_square(observed: &[u64], expected_share: &[f64]) -> f64 {
    let n: u64 = observed.iter().sum();
    observed
        .iter()
        .zip(expected_share)
        .map(|(&o, &p)| {
            let e = p * n as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum()
}

#[test]
fn uniform_matches_the_enumerated_shares() {
    let space = space();
    let total = space.len() as f64;
    // Cells: setup × status, and ply; expected shares from the space's counts.
    let mut expected_cells = Vec::new();
    for s in &space.setups {
        for st in Status::ALL {
            expected_cells.push(s.totals()[st] as f64 / total);
        }
    }
    let mut expected_plies = [0.0; 17];
    for s in &space.setups {
        for (ply, c) in s.counts.iter().enumerate() {
            expected_plies[ply] += c.total() as f64 / total;
        }
    }
    let n = 1_000_000;
    let mut cells = vec![0u64; expected_cells.len()];
    let mut plies = [0u64; 17];
    let g = Geometry::tomek();
    for (b, st) in sample::cases(space, &spec(Profile::Uniform, n, 7)).unwrap() {
        assert_eq!(
            space.status(b),
            Some(st),
            "a drawn board has the label of play"
        );
        let setup = g.setups().iter().position(|&t| t == b.t).unwrap();
        cells[setup * 4 + st.index()] += 1;
        plies[b.ply() as usize] += 1;
    }
    assert_eq!(cells.iter().sum::<u64>(), n);
    // Plies 0 and 1 hold 17 and 256 boards of 61 million: merge them into ply 2.
    let merged_obs: Vec<u64> = std::iter::once(plies[0] + plies[1] + plies[2])
        .chain(plies[3..].iter().copied())
        .collect();
    let merged_exp: Vec<f64> =
        std::iter::once(expected_plies[0] + expected_plies[1] + expected_plies[2])
            .chain(expected_plies[3..].iter().copied())
            .collect();
    // z = 4.26: a false alarm once in 100,000 runs (the seed is fixed, so never in practice).
    let z = 4.26;
    let stat = chi_square(&cells, &expected_cells);
    let bound = chi_square_bound((cells.len() - 1) as f64, z);
    assert!(stat < bound, "setup × status: chi² {stat:.1} ≥ {bound:.1}");
    let stat = chi_square(&merged_obs, &merged_exp);
    let bound = chi_square_bound((merged_obs.len() - 1) as f64, z);
    assert!(stat < bound, "ply: chi² {stat:.1} ≥ {bound:.1}");
    // And the test has teeth: a sample that leaves out the draws fails it.
    let mut skewed = cells.clone();
    for setup in 0..17 {
        skewed[setup * 4] += skewed[setup * 4 + 2];
        skewed[setup * 4 + 2] = 0;
    }
    assert!(chi_square(&skewed, &expected_cells) > chi_square_bound(67.0, z));
}

/// The bytes `write` produces for a spec, input and answers, on a pool of `threads`.
fn bytes(spec: &Spec, threads: usize) -> (Vec<u8>, Vec<u8>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let g = Generator::new(Some(space()), spec).unwrap();
        let (mut input, mut answers) = (Vec::new(), Vec::new());
        g.write(&mut input, Some(&mut answers), |_| {}).unwrap();
        (input, answers)
    })
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn same_bytes_with_one_and_two_threads() {
    for (profile, cases) in [
        (Profile::Uniform, 200_000),
        (Profile::Balanced, 150_000),
        (Profile::Official, 150_000),
        (Profile::Edge, 0),
        (Profile::Killer, 0),
        (Profile::Contest, 100_000),
    ] {
        let s = spec(profile, cases, 99);
        let one = bytes(&s, 1);
        let two = bytes(&s, 2);
        assert!(one == two, "{profile:?}: 1 and 2 threads differ");
        // The iterator yields the same cases as the files hold.
        let mut text = Vec::new();
        let listed: Vec<(Board, Status)> = sample::cases(space(), &s).unwrap().collect();
        tomek::tictactoe::codejam::write_input(
            &mut text,
            &listed.iter().map(|c| c.0).collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(text == one.0, "{profile:?}: iterator and file differ");
        // Another seed gives other cases.
        if !matches!(profile, Profile::Edge | Profile::Killer) {
            let other = bytes(&spec(profile, cases, 100), 2);
            assert!(other.0 != one.0, "{profile:?}: the seed changes nothing");
        }
    }
}

/// One scan of every reachable board, mutant by mutant through the evaluator interface: the
/// distinct signatures (the mutants of [`Mutant::ALL`] a board catches, bits 0.., and the
/// combination of facts it shows, from bit 32), and the boards an equivalent mutant answers wrongly (there must be
/// none).
struct Scan {
    signatures: Vec<u64>,
    equivalent_wrong: Vec<(&'static str, Board)>,
}

fn scan() -> &'static Scan {
    static S: OnceLock<Scan> = OnceLock::new();
    S.get_or_init(|| {
        use rayon::prelude::*;
        let per_setup: Vec<_> = Geometry::tomek()
            .setups()
            .into_par_iter()
            .map(|t| {
                let mut sigs = std::collections::HashSet::new();
                let mut wrong = Vec::new();
                for (b, s) in space().setup(t).unwrap().boards() {
                    // The mutants caught, then the combination of facts the board shows.
                    let (line, d, full, _) = combination(b, s);
                    let shown = ((u64::from(line) * 4 + (d + 1) as u64) * 2 + u64::from(full)) * 4
                        + s.index() as u64;
                    let mut sig = shown << 32;
                    for (i, m) in Mutant::ALL.iter().enumerate() {
                        if m.status(b) != s {
                            sig |= 1 << i;
                        }
                    }
                    sigs.insert(sig);
                    for m in Mutant::EQUIVALENT {
                        if m.status(b) != s {
                            wrong.push((m.id(), b));
                        }
                    }
                }
                (sigs, wrong)
            })
            .collect();
        let mut all = std::collections::HashSet::new();
        let mut equivalent_wrong = Vec::new();
        for (sigs, wrong) in per_setup {
            all.extend(sigs);
            equivalent_wrong.extend(wrong);
        }
        let mut signatures: Vec<u64> = all.into_iter().collect();
        signatures.sort();
        Scan {
            signatures,
            equivalent_wrong,
        }
    })
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn killer_kills_every_mutant_and_shows_every_status() {
    let found = killer();
    let killer = &found.boards;
    for &(b, s) in killer {
        assert_eq!(space().status(b), Some(s), "killer boards are reachable");
        assert_eq!(Table.status(b), s);
    }
    assert_eq!(
        found.boards_read, 61_089_795,
        "every reachable board is read"
    );
    // Each mutant is genuinely wrong: on a reachable board, against the label of play.
    for m in Mutant::ALL {
        assert!(
            killer.iter().any(|&(b, s)| m.status(b) != s),
            "{} survives the killer set",
            m.id()
        );
    }
    for s in Status::ALL {
        assert!(
            killer.iter().any(|&(_, t)| t == s),
            "no board {s:?} in the killer set"
        );
    }
    // The profile writes exactly these boards.
    let listed: Vec<(Board, Status)> =
        sample::cases(space(), &spec(Profile::Killer, 0, sample::DEFAULT_SEED))
            .unwrap()
            .collect();
    assert_eq!(&listed, killer);
    // The search saw what an independent scan sees.
    assert_eq!(found.signatures, scan().signatures.len());
}

/// The combination of facts a board shows, computed here from the geometry's lines: who holds
/// a line and of which kind (row, column, diagonal, or two lines), the stone difference, full
/// or not, and the status.
fn combination(b: Board, s: Status) -> (u8, i32, bool, Status) {
    let g = Geometry::tomek();
    let kind = |stones: u16| {
        let held: Vec<u16> = g
            .lines
            .iter()
            .copied()
            .filter(|&l| stones & l == l)
            .collect();
        match held.as_slice() {
            [] => 0,
            [l] if l >> l.trailing_zeros() == 0xF => 1,
            [l] if l >> l.trailing_zeros() == 0x1111 => 2,
            [_] => 3,
            _ => 4,
        }
    };
    let (x, o) = (kind(b.x | b.t), kind(b.o | b.t));
    let line = match (x, o) {
        (x, 0) => x,
        (0, o) => 4 + o,
        _ => 9,
    };
    let d = b.x.count_ones() as i32 - b.o.count_ones() as i32;
    (line, d, b.filled() == 0xFFFF, s)
}

/// The killer set is a smallest one, shown without the search that found it: it shows every
/// combination of facts some reachable board shows (found here by a scan of every board) and
/// has no more boards than there are combinations, and one board shows one combination.
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn killer_set_is_smallest() {
    use rayon::prelude::*;
    let found = killer();
    let everywhere: std::collections::BTreeSet<_> = Geometry::tomek()
        .setups()
        .into_par_iter()
        .map(|t| {
            space()
                .setup(t)
                .unwrap()
                .boards()
                .map(|(b, s)| combination(b, s))
                .collect::<std::collections::BTreeSet<_>>()
        })
        .reduce(Default::default, |mut a, b| {
            a.extend(b);
            a
        });
    let shown: std::collections::BTreeSet<_> = found
        .boards
        .iter()
        .map(|&(b, s)| combination(b, s))
        .collect();
    assert_eq!(shown, everywhere);
    assert_eq!(found.boards.len(), everywhere.len());
    assert_eq!(found.cells.len(), everywhere.len());
    let sigs = &scan().signatures;
    let universe = sigs.iter().fold(0u64, |m, s| m | s);
    assert_eq!(universe & 0xFFFF_FFFF, (1u64 << Mutant::ALL.len()) - 1);
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn equivalent_mutants_never_fail_on_a_reachable_board() {
    let wrong = &scan().equivalent_wrong;
    assert!(
        wrong.is_empty(),
        "{} wrong on {} boards, first {}",
        wrong[0].0,
        wrong.len(),
        wrong[0].1.to_line()
    );
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn contest_profile_holds_the_killer_set_and_every_status() {
    let killer = &killer().boards;
    for cases in [killer.len() as u64, 1000, 40_000] {
        let listed: Vec<(Board, Status)> =
            sample::cases(space(), &spec(Profile::Contest, cases, 7))
                .unwrap()
                .collect();
        assert_eq!(listed.len() as u64, cases);
        for bs in killer {
            assert!(listed.contains(bs), "{cases} cases miss a killer board");
        }
        for &(b, s) in &listed {
            assert_eq!(space().status(b), Some(s));
        }
    }
    // A file too small for the killer set holds as much of it as fits.
    let few = killer.len() as u64 - 1;
    let listed: Vec<(Board, Status)> = sample::cases(space(), &spec(Profile::Contest, few, 7))
        .unwrap()
        .collect();
    assert_eq!(listed.len() as u64, few);
    assert!(listed.iter().all(|bs| killer.contains(bs)));
}

#[test]
fn edge_set_holds_every_corner() {
    let g = Geometry::tomek();
    let edge: Vec<(Board, Status)> = sample::cases(space(), &spec(Profile::Edge, 0, 1))
        .unwrap()
        .collect();
    for &(b, s) in &edge {
        assert_eq!(space().status(b), Some(s));
    }
    for (k, &line) in g.lines.iter().enumerate() {
        for p in [Player::X, Player::O] {
            let won = |with_t: bool| {
                edge.iter().any(|&(b, s)| {
                    s == Status::won_by(p)
                        && lines_won(g, b, p) >> k & 1 == 1
                        && (line & b.t != 0) == with_t
                })
            };
            assert!(won(false), "{p:?} on line {k} without the T");
            assert!(won(true), "{p:?} on line {k} through the T");
        }
    }
    for p in [Player::X, Player::O] {
        assert!(
            edge.iter()
                .any(|&(b, s)| s == Status::won_by(p) && b.filled() == 0xFFFF),
            "{p:?} wins on a full board"
        );
        assert!(
            edge.iter()
                .any(|&(b, s)| s == Status::won_by(p) && lines_won(g, b, p).count_ones() == 2),
            "{p:?} makes two lines with one move"
        );
    }
    for t in [false, true] {
        assert!(
            edge.iter()
                .any(|&(b, s)| s == Status::Draw && (b.t != 0) == t)
        );
    }
    assert!(edge.contains(&(Board::empty(0), Status::Open)));
    assert!(edge.iter().any(|&(b, _)| b.t != 0 && b.stones() == 0));
}

#[test]
fn balanced_and_official_shares() {
    let share = |profile, n| {
        let mut by = [[0u64; 2]; 4];
        let mut plies = [0u64; 17];
        for (b, s) in sample::cases(space(), &spec(profile, n, 5)).unwrap() {
            assert_eq!(space().status(b), Some(s));
            by[s.index()][(b.t != 0) as usize] += 1;
            plies[b.ply() as usize] += 1;
        }
        (by, plies)
    };
    let (by, _) = share(Profile::Balanced, 8000);
    for s in by {
        assert_eq!(s, [1000, 1000]);
    }
    let (by, plies) = share(Profile::Official, 1000);
    let per_status: Vec<u64> = by.iter().map(|s| s[0] + s[1]).collect();
    assert_eq!(per_status, [370, 240, 60, 330]);
    let with_t: u64 = by.iter().map(|s| s[1]).sum();
    assert_eq!(with_t, 500);
    assert!(plies.iter().all(|&n| n > 0), "every ply present: {plies:?}");
    // Spread, not piled in the middle as uniform boards are.
    assert!(plies.iter().all(|&n| n < 150), "{plies:?}");
}

#[test]
fn exhaustive_streams_every_board_of_the_setups() {
    let s = Spec {
        setups: vec![1 << 6],
        ..spec(Profile::Exhaustive, 0, 0)
    };
    let g = Generator::new(Some(space()), &s).unwrap();
    assert_eq!(
        g.cases(),
        space().setup(1 << 6).unwrap().boards().count() as u64
    );
    let got: Vec<_> = sample::cases(space(), &s).unwrap().collect();
    let want: Vec<_> = space().setup(1 << 6).unwrap().boards().collect();
    assert!(got == want);
}

#[test]
fn uniform_needs_no_space_and_narrows_to_setups() {
    let s = Spec {
        setups: vec![0, 1 << 15],
        ..spec(Profile::Uniform, 5000, 3)
    };
    let g = Generator::new(None, &s).unwrap();
    let mut text = Vec::new();
    g.write(&mut text, None, |_| {}).unwrap();
    let mut r = tomek::tictactoe::codejam::CaseReader::new(
        &text[..],
        "gen",
        tomek::tictactoe::codejam::Strictness::Strict,
    );
    assert_eq!(r.case_count().unwrap(), 5000);
    let mut seen = [0; 2];
    for c in r {
        let b = c.unwrap().1;
        assert!(tomek::tictactoe::reach::is_reachable(Geometry::tomek(), b));
        seen[(b.t != 0) as usize] += 1;
        assert!(b.t == 0 || b.t == 1 << 15);
    }
    assert!(seen[0] > 0 && seen[1] > 0);
    assert!(Generator::new(None, &spec(Profile::Official, 10, 1)).is_err());
}
