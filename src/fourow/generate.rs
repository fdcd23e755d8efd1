//! Seeded test data: input files whose games cover every verdict and every awkward case, with
//! their expected outputs.
//!
//! Each game comes from a [`Recipe`] that builds moves on purpose rather than hoping random play
//! stumbles on them: draws and near-full boards by a randomized depth-first search over games
//! where nobody makes four, wins of a given shape by quiet random play that takes the first move
//! of that shape as soon as one exists. Every built game is judged again and must have the
//! verdict its recipe promises, so a generator bug fails loudly instead of writing mislabelled
//! data.
//!
//! All randomness comes from one [`ChaCha8Rng`] seeded with the user's `u64` and is drawn as
//! `u32` ranges, so the same seed gives the same bytes on every machine.

use super::input::{self, MAX_GAMES, MAX_MOVES};
use super::judge::{Invalid, Judgement, Summary, Verdict, judge};
use super::position::{CELLS, HEIGHT, Position, WIDTH};
use crate::outcome::Player;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Restarts allowed for one game before giving up; every recipe succeeds within a handful.
const ATTEMPTS: u32 = 10_000;
/// Positions one depth-first search may visit before it restarts with fresh random choices.
const NODE_BUDGET: u32 = 20_000;

/// What a generator run could not do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenerateError {
    #[error("a file holds 1 to {MAX_GAMES} games (t < 100), not {0}")]
    /// A file size outside the problem's bounds.
    Games(usize),
    #[error("at least one file is needed")]
    /// No file was asked for.
    NoFiles,
    #[error("could not build a game of kind {0:?}")]
    /// No game of this kind was found within the attempts allowed.
    Exhausted(Recipe),
    #[error("internal error: a game of kind {0:?} came out as {1:?}")]
    /// A built game that the judge labels otherwise: a bug.
    Mislabelled(Recipe, Verdict),
}

/// A kind of game the generator builds on purpose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// No moves; the line ends after the space, or right after the colon when `space` is false.
    Empty {
        /// Whether a space follows the colon.
        space: bool,
    },
    /// 1 to 41 moves with no four.
    Unfinished,
    /// 41 moves with no four: one cell left.
    NearlyFull,
    /// 42 moves with no four.
    Draw,
    /// A win by the player, from random play.
    Win(Player),
    /// A win whose last move makes lines in two or more directions at once.
    MultipleLines(Player),
    /// A win with a run of five or more.
    LongRun(Player),
    /// The second player fills the last cell and makes four with it.
    WinOnLastMove,
    /// A seventh chip in a slot after quiet play, with more moves after it when `tail`.
    Overflow {
        /// Whether moves follow the overflowing one.
        tail: bool,
    },
    /// Seven chips in one slot from the first move.
    StraightOverflow,
    /// Moves after a win; with `overflow_tail`, the later moves would also overflow a slot.
    AfterWin {
        /// Whether the moves after the win also overflow a slot.
        overflow_tail: bool,
    },
}

/// The seed when none is given: the one of `generated/fourow-mixed.in` and of the package.
pub const DEFAULT_SEED: u64 = 1;

/// The games every file starts from, most important first: a file of `n` games holds the first
/// `n` of these (all of them from 18 games on), and random others fill the rest.
pub const REQUIRED: [Recipe; 18] = [
    Recipe::Empty { space: true },
    Recipe::Draw,
    Recipe::Win(Player::X),
    Recipe::Win(Player::O),
    Recipe::Overflow { tail: false },
    Recipe::AfterWin {
        overflow_tail: false,
    },
    Recipe::Unfinished,
    Recipe::MultipleLines(Player::X),
    Recipe::MultipleLines(Player::O),
    Recipe::LongRun(Player::X),
    Recipe::LongRun(Player::O),
    Recipe::WinOnLastMove,
    Recipe::AfterWin {
        overflow_tail: true,
    },
    Recipe::Overflow { tail: true },
    Recipe::StraightOverflow,
    Recipe::NearlyFull,
    Recipe::Empty { space: false },
    Recipe::Draw,
];

/// Weights of the recipes that fill a file beyond [`REQUIRED`]: mostly ordinary games, as in
/// real data, with the rare shapes still showing up.
const FILL: [(Recipe, u32); 16] = [
    (Recipe::Unfinished, 24),
    (Recipe::Win(Player::X), 14),
    (Recipe::Win(Player::O), 14),
    (Recipe::Draw, 7),
    (Recipe::NearlyFull, 3),
    (Recipe::Overflow { tail: false }, 3),
    (Recipe::Overflow { tail: true }, 3),
    (
        Recipe::AfterWin {
            overflow_tail: false,
        },
        4,
    ),
    (
        Recipe::AfterWin {
            overflow_tail: true,
        },
        2,
    ),
    (Recipe::MultipleLines(Player::X), 4),
    (Recipe::MultipleLines(Player::O), 4),
    (Recipe::LongRun(Player::X), 3),
    (Recipe::LongRun(Player::O), 3),
    (Recipe::WinOnLastMove, 2),
    (Recipe::StraightOverflow, 1),
    (Recipe::Empty { space: true }, 1),
];

/// One generated test: the input text, the expected output, and what it contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The input file's text.
    pub input: String,
    /// The judge's answers to it.
    pub output: String,
    /// What the file holds, by verdict.
    pub summary: Summary,
}

/// Builds `files` test files of `games` games each from `seed`. The same arguments always give
/// the same files.
pub fn generate(
    games: usize,
    seed: u64,
    files: usize,
) -> Result<Vec<GeneratedFile>, GenerateError> {
    if games == 0 || games > MAX_GAMES {
        return Err(GenerateError::Games(games));
    }
    if files == 0 {
        return Err(GenerateError::NoFiles);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..files).map(|_| generate_file(&mut rng, games)).collect()
}

fn generate_file(rng: &mut ChaCha8Rng, games: usize) -> Result<GeneratedFile, GenerateError> {
    let mut recipes: Vec<Recipe> = REQUIRED.iter().copied().take(games).collect();
    let total_weight: u32 = FILL.iter().map(|&(_, w)| w).sum();
    while recipes.len() < games {
        let mut roll = below(rng, total_weight);
        let pick = FILL.iter().find(|&&(_, w)| {
            let hit = roll < w;
            roll = roll.saturating_sub(w);
            hit
        });
        recipes.push(pick.map_or(Recipe::Unfinished, |&(r, _)| r));
    }
    build_file(rng, &recipes)
}

/// One file of exactly the given games (1 to 99 of them), each built from its recipe, in a
/// shuffled order: for test sets that gather one kind of game. The same recipes and seed
/// always give the same file.
pub fn generate_recipes(recipes: &[Recipe], seed: u64) -> Result<GeneratedFile, GenerateError> {
    if recipes.is_empty() || recipes.len() > MAX_GAMES {
        return Err(GenerateError::Games(recipes.len()));
    }
    build_file(&mut ChaCha8Rng::seed_from_u64(seed), recipes)
}

/// Builds, checks and shuffles the games of `recipes` into a file with its answers.
fn build_file(rng: &mut ChaCha8Rng, recipes: &[Recipe]) -> Result<GeneratedFile, GenerateError> {
    let games = recipes.len();
    let mut built = Vec::with_capacity(games);
    for &recipe in recipes {
        let moves = build(rng, recipe)?;
        let j = judge(&moves);
        if !delivers(recipe, &moves, &j) {
            return Err(GenerateError::Mislabelled(recipe, j.verdict));
        }
        built.push((recipe, moves, j));
    }
    shuffle(rng, &mut built);

    let mut file = GeneratedFile {
        input: format!("{games}\n"),
        output: String::new(),
        summary: Summary::default(),
    };
    for (i, (recipe, moves, j)) in built.iter().enumerate() {
        let space = !matches!(recipe, Recipe::Empty { space: false });
        input::write_game(&mut file.input, i + 1, moves, space);
        j.write_answer(i + 1, &mut file.output);
        file.summary.add(moves.len(), j);
    }
    Ok(file)
}

/// Whether a built game is what its recipe promises.
fn delivers(recipe: Recipe, moves: &[u8], j: &Judgement) -> bool {
    let won_by = |p| j.verdict == Verdict::Won(p);
    moves.len() <= MAX_MOVES
        && match recipe {
            Recipe::Empty { .. } => moves.is_empty() && j.verdict == Verdict::NotOver,
            Recipe::Unfinished => !moves.is_empty() && j.verdict == Verdict::NotOver,
            Recipe::NearlyFull => moves.len() == MAX_MOVES - 1 && j.verdict == Verdict::NotOver,
            Recipe::Draw => j.verdict == Verdict::NoWinner,
            Recipe::Win(p) => won_by(p),
            Recipe::MultipleLines(p) => won_by(p) && j.winning_lines() >= 2,
            Recipe::LongRun(p) => won_by(p) && j.longest_run() >= 5,
            Recipe::WinOnLastMove => won_by(Player::O) && moves.len() == MAX_MOVES,
            Recipe::Overflow { .. } | Recipe::StraightOverflow => {
                matches!(j.verdict, Verdict::Invalid(Invalid::Overflow { .. }))
            }
            Recipe::AfterWin { overflow_tail } => {
                matches!(j.verdict, Verdict::Invalid(Invalid::AfterWin { .. }))
                    && (!overflow_tail || Position::from_moves(moves).is_none())
            }
        }
}

/// The moves of one game of the recipe's kind.
fn build(rng: &mut ChaCha8Rng, recipe: Recipe) -> Result<Vec<u8>, GenerateError> {
    let built = match recipe {
        Recipe::Empty { .. } => Some(Vec::new()),
        Recipe::Unfinished => {
            let len = 1 + below(rng, CELLS - 1) as usize;
            let mut moves = Vec::new();
            quiet_play(rng, Position::new(), &mut moves, len);
            Some(moves)
        }
        Recipe::NearlyFull => search_quiet(rng, MAX_MOVES - 1, |_| true),
        Recipe::Draw => search_quiet(rng, MAX_MOVES, |_| true),
        Recipe::WinOnLastMove => search_quiet(rng, MAX_MOVES - 1, |p| {
            (0..WIDTH).any(|c| p.try_play(c).is_some_and(Position::last_mover_won))
        })
        .map(|mut moves| {
            let p = Position::from_moves(&moves).unwrap_or_default();
            moves.extend((0..WIDTH).filter(|&c| p.can_play(c)).map(|c| c as u8));
            moves
        }),
        Recipe::Win(p) => random_win(rng, p, MAX_MOVES),
        Recipe::MultipleLines(p) => {
            shaped_win(rng, p, |runs| runs.iter().filter(|&&r| r != 0).count() >= 2)
        }
        Recipe::LongRun(p) => shaped_win(rng, p, |runs| runs.iter().any(|r| r.count_ones() >= 5)),
        Recipe::Overflow { tail } => overflow(rng, tail),
        Recipe::StraightOverflow => {
            let c = below(rng, WIDTH) as u8;
            Some(vec![c; HEIGHT as usize + 1])
        }
        Recipe::AfterWin { overflow_tail } => after_win(rng, overflow_tail),
    };
    built.ok_or(GenerateError::Exhausted(recipe))
}

/// A uniform number below `n` (which is at least 1).
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.random_range(0..n)
}

/// Fisher-Yates with [`below`], so the order depends on nothing but the generator.
fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// The playable columns where the player to move does not make four: the "quiet" moves.
fn quiet_columns(p: Position) -> ([u32; WIDTH as usize], usize) {
    let mut cols = [0; WIDTH as usize];
    let mut n = 0;
    for (c, next) in p.children() {
        if !next.last_mover_won() {
            cols[n] = c;
            n += 1;
        }
    }
    (cols, n)
}

/// Random quiet moves from `p` until the game has `len` moves or no quiet move is left.
fn quiet_play(rng: &mut ChaCha8Rng, mut p: Position, moves: &mut Vec<u8>, len: usize) -> Position {
    while moves.len() < len {
        let (cols, n) = quiet_columns(p);
        if n == 0 {
            break;
        }
        let c = cols[below(rng, n as u32) as usize];
        p = p.play(c);
        moves.push(c as u8);
    }
    p
}

/// `len` quiet moves (nobody makes four) ending in a position that satisfies `goal`, found by
/// depth-first search in random column order. The search restarts with fresh choices when it
/// has visited [`NODE_BUDGET`] positions, so that one unlucky early choice cannot trap it.
fn search_quiet(
    rng: &mut ChaCha8Rng,
    len: usize,
    goal: impl Fn(Position) -> bool,
) -> Option<Vec<u8>> {
    for _ in 0..ATTEMPTS {
        let mut budget = NODE_BUDGET;
        let mut moves = Vec::with_capacity(len);
        if dfs(rng, Position::new(), len, &goal, &mut moves, &mut budget) {
            return Some(moves);
        }
    }
    None
}

fn dfs(
    rng: &mut ChaCha8Rng,
    p: Position,
    len: usize,
    goal: &impl Fn(Position) -> bool,
    moves: &mut Vec<u8>,
    budget: &mut u32,
) -> bool {
    if moves.len() == len {
        return goal(p);
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut order: [u32; WIDTH as usize] = [0, 1, 2, 3, 4, 5, 6];
    shuffle(rng, &mut order);
    for c in order {
        let Some(next) = p.try_play(c) else { continue };
        if next.last_mover_won() {
            continue;
        }
        moves.push(c as u8);
        if dfs(rng, next, len, goal, moves, budget) {
            return true;
        }
        moves.pop();
    }
    false
}

/// A win by `p` in at most `max_len` moves: some quiet moves (so that wins come at every stage
/// of the game), then random moves until somebody makes four.
fn random_win(rng: &mut ChaCha8Rng, p: Player, max_len: usize) -> Option<Vec<u8>> {
    for _ in 0..ATTEMPTS {
        let mut moves = Vec::new();
        let quiet = below(rng, 30) as usize;
        let mut pos = quiet_play(rng, Position::new(), &mut moves, quiet);
        while !pos.is_full() && !pos.last_mover_won() {
            let cols: Vec<u32> = pos.children().map(|(c, _)| c).collect();
            let c = cols[below(rng, cols.len() as u32) as usize];
            pos = pos.play(c);
            moves.push(c as u8);
        }
        if pos.last_mover_won() && pos.to_move() == p.other() && moves.len() <= max_len {
            return Some(moves);
        }
    }
    None
}

/// A win by `p` whose winning runs (per direction, see [`Position::winning_runs`]) satisfy
/// `shape`: quiet random play, where `p` plays the first such winning move as soon as it has
/// one. Quiet play never completes a four, so threats pile up and shaped wins appear quickly.
fn shaped_win(
    rng: &mut ChaCha8Rng,
    p: Player,
    shape: impl Fn([u64; 4]) -> bool,
) -> Option<Vec<u8>> {
    for _ in 0..ATTEMPTS {
        let mut pos = Position::new();
        let mut moves = Vec::new();
        loop {
            if pos.to_move() == p {
                let mut hits = [0; WIDTH as usize];
                let mut n = 0;
                for (c, next) in pos.children() {
                    if next.last_mover_won() && shape(Position::winning_runs(next.opponent())) {
                        hits[n] = c;
                        n += 1;
                    }
                }
                if n > 0 {
                    moves.push(hits[below(rng, n as u32) as usize] as u8);
                    return Some(moves);
                }
            }
            let (cols, n) = quiet_columns(pos);
            if n == 0 {
                break;
            }
            let c = cols[below(rng, n as u32) as usize];
            pos = pos.play(c);
            moves.push(c as u8);
        }
    }
    None
}

/// Quiet play until some slot is full, then a seventh chip into it, and with `tail` a few more
/// moves of any kind (they do not matter: the game is already invalid).
fn overflow(rng: &mut ChaCha8Rng, tail: bool) -> Option<Vec<u8>> {
    'attempt: for _ in 0..ATTEMPTS {
        let mut pos = Position::new();
        let mut moves = Vec::new();
        loop {
            let full: Vec<u32> = (0..WIDTH).filter(|&c| pos.height(c) == HEIGHT).collect();
            // With 41 chips some slot is always full, so the game never outgrows 42 moves.
            if !full.is_empty() && (moves.len() + 1 >= MAX_MOVES || below(rng, 4) == 0) {
                moves.push(full[below(rng, full.len() as u32) as usize] as u8);
                break;
            }
            let (cols, n) = quiet_columns(pos);
            if n == 0 {
                continue 'attempt;
            }
            let c = cols[below(rng, n as u32) as usize];
            pos = pos.play(c);
            moves.push(c as u8);
        }
        let room = (MAX_MOVES - moves.len()) as u32;
        if tail && room > 0 {
            for _ in 0..=below(rng, room.min(8)) {
                moves.push(below(rng, WIDTH) as u8);
            }
        }
        return Some(moves);
    }
    None
}

/// A win followed by more moves. With `overflow_tail`, the extra moves go into the fullest
/// slot until one chip too many, to check that the move after the win is what counts.
fn after_win(rng: &mut ChaCha8Rng, overflow_tail: bool) -> Option<Vec<u8>> {
    for _ in 0..ATTEMPTS {
        let winner = if below(rng, 2) == 0 {
            Player::X
        } else {
            Player::O
        };
        let mut moves = random_win(rng, winner, MAX_MOVES - 1)?;
        let pos = Position::from_moves(&moves)?;
        let room = (MAX_MOVES - moves.len()) as u32;
        if overflow_tail {
            let col = (0..WIDTH).max_by_key(|&c| (pos.height(c), c))?;
            let needed = (HEIGHT + 1 - pos.height(col)) as usize;
            if needed > room as usize {
                continue;
            }
            moves.extend(std::iter::repeat_n(col as u8, needed));
        } else {
            for _ in 0..=below(rng, room.min(6)) {
                moves.push(below(rng, WIDTH) as u8);
            }
        }
        return Some(moves);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_recipe_delivers() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for recipe in REQUIRED.iter().chain(FILL.iter().map(|(r, _)| r)) {
            for _ in 0..3 {
                let moves = build(&mut rng, *recipe).unwrap();
                assert!(
                    delivers(*recipe, &moves, &judge(&moves)),
                    "{recipe:?}: {moves:?}"
                );
            }
        }
    }

    #[test]
    fn same_seed_same_files() {
        let a = generate(25, 3, 2).unwrap();
        assert_eq!(a, generate(25, 3, 2).unwrap());
        assert_ne!(a, generate(25, 4, 2).unwrap());
        assert_ne!(a[0], a[1]);
    }

    #[test]
    fn small_and_bad_sizes() {
        let one = generate(1, 0, 1).unwrap();
        assert_eq!(one[0].input, "1\nGame #1: \n");
        assert_eq!(one[0].output, "Game #1 is not over, yet.\n");
        assert_eq!(generate(0, 0, 1), Err(GenerateError::Games(0)));
        assert_eq!(generate(100, 0, 1), Err(GenerateError::Games(100)));
        assert_eq!(generate(5, 0, 0), Err(GenerateError::NoFiles));
    }
}
