//! Verdict rules: an ordered list of answers, each with the facts it requires. The first rule
//! whose every condition holds gives the answer; a condition left out holds for any value.

use super::facts::{Facts, Line, Next, Winner};

/// What a rule requires: each field, when set, is the value or set of values (bits by the
/// value's index) the fact must have.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conditions {
    /// Reachable in play, or not.
    pub reachable: Option<bool>,
    /// Who has a line: bits over [`Line`].
    pub line: Option<u32>,
    /// The board full, or not.
    pub full: Option<bool>,
    /// Who moves next: bits over [`Next`].
    pub next: Option<u32>,
    /// The game over, or not.
    pub over: Option<bool>,
    /// The ply: bits over 0 to 16.
    pub ply: Option<u32>,
    /// Perfect play for the side to move: bits over [`Outcome`](crate::tictactoe::explain::Outcome). Holds only where the
    /// position has a value (reachable and open).
    pub value: Option<u32>,
    /// Who wins under perfect play: bits over [`Winner`]. Holds only on reachable positions.
    pub winner: Option<u32>,
    /// Whether the side to move has a move that completes a line (the game not over).
    pub wins_now: Option<bool>,
    /// Whether the side to move has a forced win (then [`Facts::forced_win`] is its first
    /// move). Holds only where the position has a value (reachable and open).
    pub forced_win: Option<bool>,
    /// Plies to the end under perfect play: bits over 0 to 16. Holds only on reachable
    /// positions.
    pub distance: Option<u32>,
}

/// One verdict: the answer printed and what the position must be for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The answer, as printed after the prefix; a template when it holds `{row}` or `{col}`
    /// (the forced win's square, numbered from 0), see [`Rule::render`].
    pub answer: String,
    /// The facts it requires.
    pub when: Conditions,
}

/// The placeholders of an answer template.
pub const PLACEHOLDERS: [&str; 2] = ["{row}", "{col}"];

impl Rule {
    /// Whether the answer is a template over the forced win's square.
    pub fn is_template(&self) -> bool {
        self.answer.contains('{') && PLACEHOLDERS.iter().any(|p| self.answer.contains(p))
    }

    /// The answer for the square `square` of a board `cols` wide: the template filled in.
    pub fn answer_at(&self, square: u32, cols: u32) -> String {
        self.answer
            .replace("{row}", &(square / cols).to_string())
            .replace("{col}", &(square % cols).to_string())
    }

    /// The answer printed for a position with these facts, which meet the rule: the text,
    /// or the template filled in with the forced win's square.
    pub fn render(&self, f: &Facts, cols: u32) -> String {
        match (self.is_template(), f.forced_win) {
            (true, Some(s)) => self.answer_at(s as u32, cols),
            _ => self.answer.clone(),
        }
    }
}

fn within(set: Option<u32>, index: u32) -> bool {
    set.is_none_or(|s| s >> index & 1 == 1)
}

fn same(want: Option<bool>, have: bool) -> bool {
    want.is_none_or(|w| w == have)
}

impl Conditions {
    /// Whether a position with these facts meets every condition.
    pub fn hold(&self, f: &Facts) -> bool {
        same(self.reachable, f.reachable)
            && within(self.line, f.line as u32)
            && same(self.full, f.full)
            && within(self.next, f.next as u32)
            && same(self.over, f.over)
            && within(self.ply, f.ply)
            && match (self.value, f.value) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(s), Some(v)) => within(Some(s), v as u32),
            }
            && match (self.winner, f.winner) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(s), Some(w)) => within(Some(s), w as u32),
            }
            && same(self.wins_now, f.wins_now)
            && match (self.forced_win, f.value) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(w), Some(_)) => w == f.forced_win.is_some(),
            }
            && match (self.distance, f.distance) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(s), Some(d)) => within(Some(s), d),
            }
    }

    /// Whether nothing is required: every position meets it.
    pub fn is_empty(&self) -> bool {
        *self == Conditions::default()
    }

    /// Whether the rule reads the distance to the end, which costs a full search to know.
    pub fn needs_distance(&self) -> bool {
        self.distance.is_some()
    }

    /// Whether the rule reads perfect play, which costs a search to know.
    pub fn needs_values(&self) -> bool {
        self.value.is_some()
            || self.winner.is_some()
            || self.forced_win.is_some()
            || self.distance.is_some()
    }

    /// The conditions in the description's own words, `line = "first", full = true`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let set = |name: &str, s: u32, words: &[&str]| {
            let w: Vec<String> = (0..words.len())
                .filter(|&i| s >> i & 1 == 1)
                .map(|i| format!("\"{}\"", words[i]))
                .collect();
            if w.len() == 1 {
                format!("{name} = {}", w[0])
            } else {
                format!("{name} = [{}]", w.join(", "))
            }
        };
        if let Some(v) = self.reachable {
            parts.push(format!("reachable = {v}"));
        }
        if let Some(s) = self.line {
            parts.push(set("line", s, &Line::WORDS.map(|(w, _)| w)));
        }
        if let Some(v) = self.full {
            parts.push(format!("full = {v}"));
        }
        if let Some(s) = self.next {
            parts.push(set("next", s, &Next::WORDS.map(|(w, _)| w)));
        }
        if let Some(v) = self.over {
            parts.push(format!("over = {v}"));
        }
        if let Some(s) = self.ply {
            let plies: Vec<String> = (0..17)
                .filter(|&i| s >> i & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            parts.push(format!("ply = [{}]", plies.join(", ")));
        }
        if let Some(s) = self.value {
            let words: Vec<&str> = super::description::VALUE_WORDS
                .iter()
                .map(|&(w, _)| w)
                .collect();
            parts.push(set("value", s, &words));
        }
        if let Some(s) = self.winner {
            parts.push(set("winner", s, &Winner::WORDS.map(|(w, _)| w)));
        }
        if let Some(v) = self.wins_now {
            parts.push(format!("wins_now = {v}"));
        }
        if let Some(v) = self.forced_win {
            parts.push(format!("forced_win = {v}"));
        }
        if let Some(s) = self.distance {
            let d: Vec<String> = (0..17)
                .filter(|&i| s >> i & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            parts.push(format!("distance = [{}]", d.join(", ")));
        }
        if parts.is_empty() {
            "any position".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// The facts in the description's words, for messages: `reachable = false, line = "both", …`.
pub fn describe_facts(f: &Facts) -> String {
    let word = |i: usize, words: &[&str]| words[i].to_string();
    let mut s = format!(
        "reachable = {}, line = \"{}\", full = {}, next = \"{}\", over = {}, ply = {}",
        f.reachable,
        word(f.line as usize, &Line::WORDS.map(|(w, _)| w)),
        f.full,
        word(f.next as usize, &Next::WORDS.map(|(w, _)| w)),
        f.over,
        f.ply
    );
    if f.wins_now {
        s.push_str(", wins_now = true");
    }
    if let Some(v) = f.value {
        let w = super::description::VALUE_WORDS
            .iter()
            .find(|&&(_, o)| o == v)
            .map_or("", |&(w, _)| w);
        s.push_str(&format!(", value = \"{w}\""));
    }
    if let Some(w) = f.winner {
        s.push_str(&format!(
            ", winner = \"{}\"",
            word(w as usize, &Winner::WORDS.map(|(w, _)| w))
        ));
    }
    if f.value == Some(crate::tictactoe::explain::Outcome::Win)
        && let Some(sq) = f.forced_win
    {
        s.push_str(&format!(", forced_win = square {sq}"));
    }
    if let Some(d) = f.distance {
        s.push_str(&format!(", distance = {d}"));
    }
    s
}
