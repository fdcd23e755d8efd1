//! `bdd-compare`: counts Connect Four positions per ply (OEIS A212693 on 7×6) with a maintained
//! decision-diagram crate, to measure `tomek fourow count --method bdd`, whose diagram store is
//! written for the job, against general-purpose libraries on the same encoding.
//!
//! The count is the one tomek makes: a position is the set of chips on the board, however it
//! was reached; play stops at a four, so a position where the player who just moved has four
//! in a line is counted at its ply but not expanded. Each ply's open positions are one binary
//! decision diagram, over the variables of tomek's encoding (`src/fourow/bdd/encoding.rs`):
//! each column of `rows` cells has `rows + 1` variables, bits `rows` down to `0`; the column's
//! height `h` is marked by bit `h` set with every bit above it clear, and bits `h - 1` down to
//! `0` are the colours of its chips (set for the first player). Variables are ordered column by
//! column from the left, each column from its top bit down. Every position is exactly one
//! assignment, so counting the satisfying assignments of a diagram counts positions.
//!
//! Unlike tomek, which builds the successors of a whole set in one pass written for this
//! encoding, the image here is the textbook one for a generic BDD package, made of the
//! library's own operations: for each column `c` and height `h < rows`, the positions whose
//! column `c` has height `h` (bit `h` set, the bits above clear) become, after a move there,
//! `∃ bit h, bit h+1 . (S ∧ height h)` with bit `h + 1` set and bit `h` the mover's colour;
//! the union of these over every column and height is the next ply. The relational product
//! `∃ vars . (S ∧ cube)` is the library's combined and-exists operation (see [`Sets`]).
//!
//! Output: CSV on standard output, `ply,positions,nodes,seconds`, one line per ply written as
//! soon as the ply is done. `positions` counts every position of the ply (won ones included);
//! `nodes` is the size (terminals included) of the diagram of the ply's open positions, the
//! ones expanded next (won positions taken out), so that it can be set beside tomek's nodes
//! (plain diagrams give the very same numbers; with complement edges, `oxidd-bcdd`, there is
//! one terminal less); `seconds` is the wall time of the ply (the image, the count, taking out
//! the fours, the node count).
//!
//! Usage: `bdd-compare --lib oxidd|oxidd-bcdd|biodivine --plies N [--cols 7] [--rows 6]
//! [--nodes N] [--cache N] [--threads N]`.

use std::fmt::Display;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

/// The board: its size and where each cell's bits are in the variable order.
#[derive(Copy, Clone, Debug)]
struct Layout {
    /// Number of columns.
    cols: u32,
    /// Number of cells in a column.
    rows: u32,
}

impl Layout {
    /// Variables in all.
    fn vars(self) -> u32 {
        self.cols * (self.rows + 1)
    }

    /// The variable (and level: variables are never reordered) of bit `bit` (0 = bottom) of
    /// column `col`.
    fn var(self, col: u32, bit: u32) -> u32 {
        col * (self.rows + 1) + self.rows - bit
    }

    /// Every line of four cells on the board, as (column, row) pairs.
    fn lines(self) -> Vec<[(u32, u32); 4]> {
        let (w, h) = (i64::from(self.cols), i64::from(self.rows));
        let mut lines = Vec::new();
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for c in 0..w {
                for r in 0..h {
                    let cell = |k: i64| (c + k * dc, r + k * dr);
                    let (ec, er) = cell(3);
                    if (0..w).contains(&ec) && (0..h).contains(&er) {
                        // In range: the casts cannot fail.
                        lines.push([0, 1, 2, 3].map(|k| {
                            let (col, row) = cell(k);
                            (col as u32, row as u32)
                        }));
                    }
                }
            }
        }
        lines
    }
}

/// What the count needs from a decision-diagram library: one manager (or variable set) and
/// the Boolean functions it holds.
trait Sets {
    /// A set of assignments (a Boolean function).
    type Set;
    /// A set of variables to quantify, in the form the library takes.
    type Vars;

    /// The empty set (`false`) or every assignment (`true`).
    fn constant(&self, value: bool) -> Self::Set;
    /// The assignments where variable `var` is `value`.
    fn literal(&self, var: u32, value: bool) -> Self::Set;
    /// `a ∧ b`.
    fn and(&self, a: &Self::Set, b: &Self::Set) -> Self::Set;
    /// `a ∨ b`.
    fn or(&self, a: &Self::Set, b: &Self::Set) -> Self::Set;
    /// `a ∧ ¬b`.
    fn and_not(&self, a: &Self::Set, b: &Self::Set) -> Self::Set;
    /// The variables `vars`, ready for [`Sets::and_exists`].
    fn vars(&self, vars: &[u32]) -> Self::Vars;
    /// The relational product `∃ vars . (a ∧ b)`, in one operation of the library.
    fn and_exists(&self, a: &Self::Set, b: &Self::Set, vars: &Self::Vars) -> Self::Set;
    /// The number of satisfying assignments of `a` over all the variables, exactly.
    fn count(&self, a: &Self::Set) -> u128;
    /// The nodes of the diagram of `a`, terminals included.
    fn nodes(&self, a: &Self::Set) -> usize;
}

/// `sets` joined by `∨`, sets of about the same number of terms paired first (as in a binary
/// counter), so that the unions are of diagrams of similar size.
fn union_all<L: Sets>(lib: &L, sets: impl IntoIterator<Item = L::Set>) -> L::Set {
    let mut stack: Vec<(u32, L::Set)> = Vec::new();
    for mut set in sets {
        let mut rank = 0;
        while stack.last().is_some_and(|(r, _)| *r == rank) {
            let (_, top) = stack.pop().expect("the stack is not empty");
            set = lib.or(&top, &set);
            rank += 1;
        }
        stack.push((rank, set));
    }
    let mut stack = stack.into_iter().rev().map(|(_, set)| set);
    let first = stack.next().unwrap_or_else(|| lib.constant(false));
    stack.fold(first, |acc, set| lib.or(&set, &acc))
}

/// The conjunction of the literals `(var, value)`.
fn cube<L: Sets>(lib: &L, literals: &[(u32, bool)]) -> L::Set {
    literals
        .iter()
        .fold(lib.constant(true), |acc, &(var, value)| {
            lib.and(&acc, &lib.literal(var, value))
        })
}

/// One move: a chip dropped into column `col` of height `height`.
struct Move<L: Sets> {
    /// The positions whose column has that height: bit `height` set, every bit above clear.
    before: L::Set,
    /// The two bits the move rewrites: `height` and `height + 1`.
    changed: L::Vars,
    /// The two bits after the move, for the first player and for the second: bit
    /// `height + 1` set (the new marker) and bit `height` the mover's colour.
    after: [L::Set; 2],
}

/// What stays the same from ply to ply: the moves and both players' fours.
struct Game<L: Sets> {
    layout: Layout,
    moves: Vec<Move<L>>,
    /// The assignments where the first player has four in a line, and the second.
    wins: [L::Set; 2],
}

impl<L: Sets> Game<L> {
    fn new(lib: &L, layout: Layout) -> Self {
        let Layout { cols, rows } = layout;
        let mut moves = Vec::new();
        for col in 0..cols {
            for height in 0..rows {
                let mut literals = vec![(layout.var(col, height), true)];
                literals.extend((height + 1..=rows).map(|bit| (layout.var(col, bit), false)));
                let (marker, cell) = (layout.var(col, height + 1), layout.var(col, height));
                moves.push(Move {
                    before: cube(lib, &literals),
                    changed: lib.vars(&[cell, marker]),
                    after: [true, false].map(|first| cube(lib, &[(marker, true), (cell, first)])),
                });
            }
        }
        let wins = [true, false].map(|first| Self::wins(lib, layout, first));
        Game {
            layout,
            moves,
            wins,
        }
    }

    /// The assignments where the first player (`first`) or the second has four in a line.
    fn wins(lib: &L, layout: Layout, first: bool) -> L::Set {
        // The cell holds a chip of that player: some bit above `row` is the column's marker
        // (its height is above `row`) and bit `row` is the player's colour.
        let chip = |col: u32, row: u32| {
            let filled = union_all(
                lib,
                (row + 1..=layout.rows).map(|bit| lib.literal(layout.var(col, bit), true)),
            );
            lib.and(&filled, &lib.literal(layout.var(col, row), first))
        };
        let chips: Vec<Vec<L::Set>> = (0..layout.cols)
            .map(|col| (0..layout.rows).map(|row| chip(col, row)).collect())
            .collect();
        let line = |cells: &[(u32, u32); 4]| {
            cells.iter().fold(lib.constant(true), |acc, &(c, r)| {
                lib.and(&acc, &chips[c as usize][r as usize])
            })
        };
        union_all(lib, layout.lines().iter().map(line))
    }

    /// The positions one move of the first player (`first`) or the second away from `open`.
    fn image(&self, lib: &L, open: &L::Set, first: bool) -> L::Set {
        let after = usize::from(!first);
        union_all(
            lib,
            self.moves.iter().map(|m| {
                let rest = lib.and_exists(open, &m.before, &m.changed);
                lib.and(&rest, &m.after[after])
            }),
        )
    }

    /// The empty board: every column's marker at bit 0.
    fn empty(&self, lib: &L) -> L::Set {
        let Layout { cols, rows } = self.layout;
        let literals: Vec<(u32, bool)> = (0..cols)
            .flat_map(|col| (0..=rows).map(move |bit| (col, bit)))
            .map(|(col, bit)| (self.layout.var(col, bit), bit == 0))
            .collect();
        cube(lib, &literals)
    }
}

/// Counts plies 0 to `plies` and writes one CSV line per ply to `out` as soon as it is done.
fn run<L: Sets>(lib: &L, layout: Layout, plies: u32, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "ply,positions,nodes,seconds")?;
    // Ply 0's time includes building the moves and the fours, as tomek's does.
    let clock = Instant::now();
    let game = Game::new(lib, layout);
    let mut open = game.empty(lib);
    row(out, 0, lib.count(&open), lib.nodes(&open), clock)?;
    for ply in 1..=plies {
        let clock = Instant::now();
        let first = ply % 2 == 1;
        let all = game.image(lib, &open, first);
        let positions = lib.count(&all);
        // Only the player who just moved can have a four: the positions expanded had none.
        open = lib.and_not(&all, &game.wins[usize::from(!first)]);
        row(out, ply, positions, lib.nodes(&open), clock)?;
    }
    Ok(())
}

/// Writes one CSV line and flushes it.
fn row(
    out: &mut impl Write,
    ply: u32,
    positions: impl Display,
    nodes: usize,
    clock: Instant,
) -> io::Result<()> {
    let seconds = clock.elapsed().as_secs_f64();
    writeln!(out, "{ply},{positions},{nodes},{seconds:.3}")?;
    out.flush()
}

/// OxiDD's BDDs with a shared, multi-threaded manager: `oxidd::bdd` (plain BDDs) for
/// `--lib oxidd`, `oxidd::bcdd` (complement edges) for `--lib oxidd-bcdd`. OxiDD's
/// documentation recommends neither for speed; on this count the plain ones were faster in
/// every run measured (7×6 to ply 20 on two cores of a shared machine, back to back: 60 s
/// against 76 s).
///
/// Garbage is left to the manager, which collects it by itself, on a thread of its own, when
/// its node space is 95% full. Collecting after every ply instead (`Manager::gc`), as tomek
/// does, made the count slower (7×6 to ply 18, back to back: 37 s instead of 22 s); every
/// collection also empties the apply cache. As garbage piles up until the node space
/// (`--nodes`) is nearly full, the peak memory follows that size more than what the diagrams
/// need.
mod with_oxidd {
    use super::Sets;
    use oxidd::util::{AllocResult, FxHasher, SatCountCache};
    use oxidd::{BooleanFunctionQuant, BooleanOperator, Function};
    use oxidd::{Manager, ManagerRef};
    use std::hash::BuildHasherDefault;

    /// A manager and the number of its variables.
    pub struct Oxidd<F: Function> {
        manager: F::ManagerRef,
        vars: u32,
    }

    impl<F: Function> Oxidd<F> {
        /// Adds `vars` variables to a new `manager`: the variable numbered `i` is at level `i`.
        pub fn new(manager: F::ManagerRef, vars: u32) -> Self {
            manager.with_manager_exclusive(|m| {
                m.add_vars(vars);
            });
            Oxidd { manager, vars }
        }
    }

    /// The result of an operation, or the end of the program when the manager is full.
    fn ok<T>(result: AllocResult<T>) -> T {
        result.unwrap_or_else(|_| {
            eprintln!("bdd-compare: oxidd is out of node space (raise --nodes)");
            std::process::exit(1)
        })
    }

    impl<F: BooleanFunctionQuant> Sets for Oxidd<F> {
        type Set = F;
        /// A cube: the conjunction of the variables.
        type Vars = F;

        fn constant(&self, value: bool) -> F {
            self.manager
                .with_manager_shared(|m| if value { F::t(m) } else { F::f(m) })
        }

        fn literal(&self, var: u32, value: bool) -> F {
            ok(self.manager.with_manager_shared(|m| {
                if value {
                    F::var(m, var)
                } else {
                    F::not_var(m, var)
                }
            }))
        }

        fn and(&self, a: &F, b: &F) -> F {
            ok(a.and(b))
        }

        fn or(&self, a: &F, b: &F) -> F {
            ok(a.or(b))
        }

        fn and_not(&self, a: &F, b: &F) -> F {
            // `b < a`, the strict implication, is `¬b ∧ a`.
            ok(b.imp_strict(a))
        }

        fn vars(&self, vars: &[u32]) -> F {
            vars.iter().fold(self.constant(true), |acc, &v| {
                ok(acc.and(&self.literal(v, true)))
            })
        }

        fn and_exists(&self, a: &F, b: &F, vars: &F) -> F {
            // `BooleanFunctionQuant::apply_exists`: `∃ vars . a ∧ b` in one recursive pass.
            ok(a.apply_exists(BooleanOperator::And, b, vars))
        }

        fn count(&self, a: &F) -> u128 {
            // Integer model counting is exact (the count of each node is halved from 2^vars
            // down the diagram); `vars` is at most 127, so u128 holds it.
            let mut cache: SatCountCache<u128, BuildHasherDefault<FxHasher>> =
                SatCountCache::default();
            a.sat_count(self.vars, &mut cache)
        }

        fn nodes(&self, a: &F) -> usize {
            a.node_count()
        }
    }
}

/// biodivine-lib-bdd: every `Bdd` is a standalone array of nodes, made by single-threaded
/// apply operations; there is no shared manager and so no garbage to collect.
mod with_biodivine {
    use super::Sets;
    use biodivine_lib_bdd::{Bdd, BddVariable, BddVariableSet, op_function};

    /// The variable set and its variables in order.
    pub struct Biodivine {
        set: BddVariableSet,
        vars: Vec<BddVariable>,
    }

    impl Biodivine {
        /// `vars` anonymous variables: the variable numbered `i` is the `i`-th in the order.
        pub fn new(vars: u16) -> Self {
            let set = BddVariableSet::new_anonymous(vars);
            let vars = set.variables();
            Biodivine { set, vars }
        }
    }

    impl Sets for Biodivine {
        type Set = Bdd;
        type Vars = Vec<BddVariable>;

        fn constant(&self, value: bool) -> Bdd {
            if value {
                self.set.mk_true()
            } else {
                self.set.mk_false()
            }
        }

        fn literal(&self, var: u32, value: bool) -> Bdd {
            self.set.mk_literal(self.vars[var as usize], value)
        }

        fn and(&self, a: &Bdd, b: &Bdd) -> Bdd {
            a.and(b)
        }

        fn or(&self, a: &Bdd, b: &Bdd) -> Bdd {
            a.or(b)
        }

        fn and_not(&self, a: &Bdd, b: &Bdd) -> Bdd {
            a.and_not(b)
        }

        fn vars(&self, vars: &[u32]) -> Vec<BddVariable> {
            vars.iter().map(|&v| self.vars[v as usize]).collect()
        }

        fn and_exists(&self, a: &Bdd, b: &Bdd, vars: &Vec<BddVariable>) -> Bdd {
            // `Bdd::binary_op_with_exists`: the apply of `and` with the variables projected
            // away in the same pass.
            Bdd::binary_op_with_exists(a, b, op_function::and, vars)
        }

        fn count(&self, a: &Bdd) -> u128 {
            // `exact_cardinality` is a big integer; at most 127 variables, so it fits.
            u128::try_from(a.exact_cardinality()).expect("at most 2^127 assignments")
        }

        fn nodes(&self, a: &Bdd) -> usize {
            a.size()
        }
    }
}

/// The command line.
#[derive(Debug)]
struct Args {
    lib: String,
    plies: u32,
    layout: Layout,
    /// OxiDD: inner nodes the manager has room for.
    nodes: usize,
    /// OxiDD: entries of the apply cache.
    cache: usize,
    /// OxiDD: worker threads.
    threads: u32,
}

const USAGE: &str = "usage: bdd-compare --lib oxidd|oxidd-bcdd|biodivine --plies N \
[--cols 7] [--rows 6] [--nodes N] [--cache N] [--threads N]

Counts the Connect Four positions of plies 0 to N with a decision-diagram library, on tomek's
encoding, and prints ply,positions,nodes,seconds as CSV (nodes: the diagram of the ply's open
positions). oxidd uses plain BDDs (oxidd::bdd), oxidd-bcdd complement edges (oxidd::bcdd);
--nodes (default 2^26) and --cache (default 2^24) size oxidd's node space and apply cache, and
--threads its workers (default: every core). biodivine (biodivine-lib-bdd) runs on one core.";

fn parse(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let mut lib = None;
    let mut plies = None;
    let mut layout = Layout { cols: 7, rows: 6 };
    let mut nodes = 1 << 26;
    let mut cache = 1 << 24;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str| {
            value
                .parse::<u32>()
                .map_err(|_| format!("{what} takes a number, not {value:?}"))
        };
        match flag.as_str() {
            "--lib" => lib = Some(value.clone()),
            "--plies" => plies = Some(number("--plies")?),
            "--cols" => layout.cols = number("--cols")?,
            "--rows" => layout.rows = number("--rows")?,
            "--nodes" => nodes = number("--nodes")? as usize,
            "--cache" => cache = number("--cache")? as usize,
            "--threads" => threads = number("--threads")?.max(1),
            _ => return Err(format!("unknown argument {flag:?}")),
        }
    }
    let lib = lib.ok_or("--lib is required")?;
    if !["oxidd", "oxidd-bcdd", "biodivine"].contains(&lib.as_str()) {
        return Err(format!("unknown library {lib:?}"));
    }
    let plies = plies.ok_or("--plies is required")?;
    let Layout { cols, rows } = layout;
    // Counts are u128 over every variable.
    if cols == 0 || rows == 0 || cols.saturating_mul(rows + 1) > 127 {
        return Err(format!(
            "a board of {cols}x{rows} is not supported (at most 127 variables)"
        ));
    }
    if plies > cols * rows {
        return Err(format!(
            "a board of {} cells has no ply {plies}",
            cols * rows
        ));
    }
    Ok(Args {
        lib,
        plies,
        layout,
        nodes,
        cache,
        threads,
    })
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("bdd-compare: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let threads = args.threads;
    let vars = args.layout.vars();
    let mut out = io::stdout().lock();
    let result = match args.lib.as_str() {
        "oxidd" => {
            let manager = oxidd::bdd::new_manager(args.nodes, args.cache, threads);
            let lib = with_oxidd::Oxidd::<oxidd::bdd::BDDFunction>::new(manager, vars);
            run(&lib, args.layout, args.plies, &mut out)
        }
        "oxidd-bcdd" => {
            let manager = oxidd::bcdd::new_manager(args.nodes, args.cache, threads);
            let lib = with_oxidd::Oxidd::<oxidd::bcdd::BCDDFunction>::new(manager, vars);
            run(&lib, args.layout, args.plies, &mut out)
        }
        _ => {
            // At most 127 variables (checked above).
            let lib = with_biodivine::Biodivine::new(vars as u16);
            run(&lib, args.layout, args.plies, &mut out)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bdd-compare: writing the counts: {e}");
            ExitCode::FAILURE
        }
    }
}
