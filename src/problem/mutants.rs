//! The catalogue of wrong solutions a problem's test data must catch, derived from its
//! description, and the killer set: a smallest set of positions of the input space on which
//! every wrong solution that can fail does fail, and every answer appears.
//!
//! Each wrong solution is the right judgement with one bug people write (the comment threads
//! of these problems are full of them): a check of play left out, lines forgotten, the turn
//! order reversed, a symbol misread, the answer's words changed. It computes the facts of the
//! position as that bug would, then applies the problem's own rules.

use super::Problem;
use super::facts::{Facts, Line, Next, Values, Winner};
use crate::tictactoe::board::Board;
use crate::tictactoe::reach::Checks;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::sample::smallest_cover;

/// One class of bug.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// Never checks that both players have a line (reads such a grid as the first's win).
    NoBothCheck,
    /// Accepts a move after a win: no check that some stone of the winner lies on all its
    /// lines.
    MoveAfterWin,
    /// Accepts a line by the player who did not move last.
    WinnerNotLast,
    /// Never checks the stone counts.
    NoCountCheck,
    /// Checks the counts the wrong way round: the second player taken to move first.
    CountsSwapped,
    /// A player with two lines at once taken for an impossible grid.
    TwoLinesRejected,
    /// Ignores both diagonals.
    NoDiagonals,
    /// Ignores the anti-diagonals (down-left).
    NoAntiDiagonals,
    /// A full board read as a draw before looking for a line.
    FullBeforeLine,
    /// The joker counted for the first player only: the second player's lines read without
    /// it.
    JokerOneSide,
    /// The second player's symbol not recognised (`O` for `0`, or the reverse): its stones
    /// read as empty squares.
    SecondSymbolMisread,
    /// The answer's letters in the other case.
    AnswerCase,
    /// The answer's words run together, without their spaces.
    AnswerSpacing,
}

impl Mutant {
    /// Every class, in the order of the catalogue.
    pub const ALL: [Mutant; 13] = [
        Mutant::NoBothCheck,
        Mutant::MoveAfterWin,
        Mutant::WinnerNotLast,
        Mutant::NoCountCheck,
        Mutant::CountsSwapped,
        Mutant::TwoLinesRejected,
        Mutant::NoDiagonals,
        Mutant::NoAntiDiagonals,
        Mutant::FullBeforeLine,
        Mutant::JokerOneSide,
        Mutant::SecondSymbolMisread,
        Mutant::AnswerCase,
        Mutant::AnswerSpacing,
    ];

    /// A short name.
    pub fn id(self) -> &'static str {
        match self {
            Mutant::NoBothCheck => "no-both-check",
            Mutant::MoveAfterWin => "move-after-win",
            Mutant::WinnerNotLast => "winner-not-last",
            Mutant::NoCountCheck => "no-count-check",
            Mutant::CountsSwapped => "counts-swapped",
            Mutant::TwoLinesRejected => "two-lines-rejected",
            Mutant::NoDiagonals => "no-diagonals",
            Mutant::NoAntiDiagonals => "no-anti-diagonals",
            Mutant::FullBeforeLine => "full-before-line",
            Mutant::JokerOneSide => "joker-one-side",
            Mutant::SecondSymbolMisread => "second-symbol-misread",
            Mutant::AnswerCase => "answer-case",
            Mutant::AnswerSpacing => "answer-spacing",
        }
    }

    /// The bug in words.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::NoBothCheck => "no check that both players have a line",
            Mutant::MoveAfterWin => "a move after a win accepted",
            Mutant::WinnerNotLast => "a line by the player who did not move last accepted",
            Mutant::NoCountCheck => "the stone counts never checked",
            Mutant::CountsSwapped => "the players' counts checked the wrong way round",
            Mutant::TwoLinesRejected => "a player with two lines at once taken as impossible",
            Mutant::NoDiagonals => "diagonals ignored",
            Mutant::NoAntiDiagonals => "anti-diagonals ignored",
            Mutant::FullBeforeLine => "a full board taken for a draw before looking for a line",
            Mutant::JokerOneSide => "the joker counted for the first player only",
            Mutant::SecondSymbolMisread => "the second player's symbol misread (`0` and `O`)",
            Mutant::AnswerCase => "the verdict's words in the other case",
            Mutant::AnswerSpacing => "the verdict's words without their spaces",
        }
    }
}

/// The wrong solutions of one problem, ready to answer positions.
pub struct Catalogue<'p> {
    problem: &'p Problem,
    no_diagonals: Geometry,
    no_anti: Geometry,
    /// Perfect play on each board: the problem's, without diagonals, without anti-diagonals.
    values: [Values; 3],
}

/// The facts of `b` on `g` (the problem's own board when `None`), held to `checks`.
fn facts_in(
    p: &Problem,
    values: &mut Values,
    g: Option<&Geometry>,
    b: Board,
    checks: Checks,
) -> Facts {
    let values = p.needs_values().then_some(values);
    super::facts::facts_with(g.unwrap_or(&p.geometry), b, checks, values)
}

/// Swaps the players of a board: the board as a solver that has them the wrong way round
/// sees it.
fn swapped(b: Board) -> Board {
    Board {
        x: b.o,
        o: b.x,
        t: b.t,
    }
}

fn swap_facts(mut f: Facts) -> Facts {
    f.line = match f.line {
        Line::First => Line::Second,
        Line::Second => Line::First,
        l => l,
    };
    f.next = match f.next {
        Next::First => Next::Second,
        Next::Second => Next::First,
        n => n,
    };
    f.winner = f.winner.map(|w| match w {
        Winner::First => Winner::Second,
        Winner::Second => Winner::First,
        w => w,
    });
    f
}

impl<'p> Catalogue<'p> {
    /// The catalogue of `problem`.
    pub fn new(problem: &'p Problem) -> Catalogue<'p> {
        let g = &problem.geometry;
        let build = |dirs: &[(i32, i32)]| {
            Geometry::with_directions(g.rows, g.cols, g.line, g.joker, dirs)
                .expect("a subset of a valid geometry's directions")
        };
        let d = Geometry::DIRECTIONS;
        Catalogue {
            problem,
            no_diagonals: build(&d[..2]),
            no_anti: build(&d[..3]),
            values: Default::default(),
        }
    }

    fn facts(&mut self, g: Option<&Geometry>, b: Board, checks: Checks) -> Facts {
        facts_in(self.problem, &mut self.values[0], g, b, checks)
    }

    /// What mutant `m` answers on `b` (`None` where no rule matches what it computes: it
    /// prints something no right solution prints).
    pub fn answer(&mut self, m: Mutant, b: Board) -> Option<String> {
        let all = Checks::ALL;
        let f = match m {
            Mutant::NoBothCheck => {
                let mut f = self.facts(None, b, Checks { both: false, ..all });
                if f.line == Line::Both {
                    f.line = Line::First;
                }
                f
            }
            Mutant::MoveAfterWin => self.facts(
                None,
                b,
                Checks {
                    winning_move: false,
                    ..all
                },
            ),
            Mutant::WinnerNotLast => self.facts(
                None,
                b,
                Checks {
                    winner_last: false,
                    ..all
                },
            ),
            Mutant::NoCountCheck => self.facts(
                None,
                b,
                Checks {
                    counts: false,
                    ..all
                },
            ),
            Mutant::CountsSwapped => {
                let f = self.facts(None, swapped(b), all);
                swap_facts(f)
            }
            Mutant::TwoLinesRejected => {
                let mut f = self.facts(None, b, all);
                let g = &self.problem.geometry;
                let lines = |mask: u16| g.lines.iter().filter(|&&l| mask & l == l).count();
                if lines(b.x | b.t) >= 2 || lines(b.o | b.t) >= 2 {
                    f.reachable = false;
                    f.value = None;
                    f.winner = None;
                }
                f
            }
            Mutant::NoDiagonals => facts_in(
                self.problem,
                &mut self.values[1],
                Some(&self.no_diagonals),
                b,
                all,
            ),
            Mutant::NoAntiDiagonals => facts_in(
                self.problem,
                &mut self.values[2],
                Some(&self.no_anti),
                b,
                all,
            ),
            Mutant::FullBeforeLine => {
                let mut f = self.facts(None, b, all);
                if f.full {
                    f.line = Line::None;
                }
                f
            }
            Mutant::JokerOneSide => self.facts(
                None,
                b,
                Checks {
                    joker_both: false,
                    ..all
                },
            ),
            Mutant::SecondSymbolMisread => {
                let seen = Board { o: 0, ..b };
                self.facts(None, seen, all)
            }
            Mutant::AnswerCase | Mutant::AnswerSpacing => self.facts(None, b, all),
        };
        let v = self.problem.verdict_of(&f)?;
        let a = &self.problem.verdicts[v].answer;
        Some(match m {
            Mutant::AnswerCase => {
                if a.chars().any(|c| c.is_ascii_uppercase()) {
                    a.to_ascii_lowercase()
                } else {
                    a.to_ascii_uppercase()
                }
            }
            Mutant::AnswerSpacing => a.replace(' ', ""),
            _ => a.clone(),
        })
    }

    /// The mutants that fail on `b`, whose right answer is `right`, as bits over
    /// [`Mutant::ALL`].
    pub fn kills(&mut self, b: Board, right: &str) -> u32 {
        let mut bits = 0;
        for (i, &m) in Mutant::ALL.iter().enumerate() {
            if self.answer(m, b).as_deref() != Some(right) {
                bits |= 1 << i;
            }
        }
        bits
    }
}

/// The killer set of a problem and what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KillerSet {
    /// The positions, fewest stones first.
    pub boards: Vec<Board>,
    /// Positions of the input space read.
    pub positions: u64,
    /// The mutants some position catches, as bits over [`Mutant::ALL`]; the set catches all.
    pub killable: u32,
}

/// The killer set: a smallest set of positions of the input space on which every mutant that
/// fails anywhere fails at least once and every answer appears; an exact set cover over the
/// positions' signatures (the mutants each catches and its answer), as for Tic-Tac-Toe-Tomek.
pub fn killer_set(problem: &Problem) -> KillerSet {
    let mut catalogue = Catalogue::new(problem);
    let mut values = Values::new();
    let answers: Vec<String> = problem.answers().iter().map(|s| s.to_string()).collect();
    let positions = problem.positions();
    let mut first: Vec<(u64, Board)> = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    for &b in &positions {
        let v = problem.verdict(b, &mut values);
        let a = &problem.verdicts[v].answer;
        let k = answers
            .iter()
            .position(|x| x == a)
            .expect("an answer of the rules");
        let sig = u64::from(catalogue.kills(b, a)) | 1 << (32 + k);
        if seen.insert(sig) {
            first.push((sig, b));
        }
    }
    // Among equal signatures the first kept is the first in input-space order; prefer fewer
    // stones among the candidates, so the set is made of the simplest positions.
    first.sort_by_key(|&(_, b)| (b.ply(), b));
    let sigs: Vec<u64> = first.iter().map(|&(s, _)| s).collect();
    let target = sigs.iter().fold(0, |m, &s| m | s);
    let mut boards: Vec<Board> = smallest_cover(&sigs).iter().map(|&i| first[i].1).collect();
    boards.sort_by_key(|&b| (b.ply(), b));
    KillerSet {
        boards,
        positions: positions.len() as u64,
        killable: target as u32,
    }
}
