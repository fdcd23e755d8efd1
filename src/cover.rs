//! Exact set cover: the smallest choice of sets whose union is the union of all of them. The
//! killer sets of both Code Jam's problem and the family's are such covers, over the mutants
//! each position catches and the combination of facts it shows.

use hashbrown::HashMap;
use rayon::prelude::*;
use smallvec::SmallVec;

/// A set of small numbers (mutants, cells) as bits. The first 256 are held in place, with no
/// allocation: a position's set of mutants is made by one thread and dropped by another, and
/// allocations freed across threads contend for the allocator's lock.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits(SmallVec<[u64; 4]>);

impl Bits {
    /// An empty set with room for `n` members.
    pub fn new(n: usize) -> Bits {
        Bits(smallvec::smallvec![0; n.div_ceil(64).max(1)])
    }

    /// Adds `i`.
    pub fn set(&mut self, i: usize) {
        if i / 64 >= self.0.len() {
            self.0.resize(i / 64 + 1, 0);
        }
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Whether `i` is in.
    pub fn has(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Adds every member of `other`.
    pub fn union_with(&mut self, other: &Bits) {
        if other.0.len() > self.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// Keeps only the members `other` has too.
    pub fn intersect_with(&mut self, other: &Bits) {
        for (i, w) in self.0.iter_mut().enumerate() {
            *w &= other.0.get(i).copied().unwrap_or(0);
        }
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.0.len() * 64).filter(|&i| self.has(i))
    }
}

/// A smallest choice of `sets` whose union is the union of all of them, as indices into
/// `sets` (the first in order among equally small ones the search meets). `exclusive` holds
/// members of which no set has two: each needs a set of its own, which bounds the search from
/// below.
///
/// Iterative deepening from that bound: covers of `k` sets, then `k + 1`, and so on, over the
/// sets no other one strictly contains. Each step branches on the uncovered member held by the
/// fewest sets, and prunes when the exclusive members left, or what is left over the most any
/// one set covers, need more sets than there is room for.
pub fn smallest_cover(sets: &[Bits], exclusive: &Bits) -> Vec<usize> {
    let words = sets.iter().map(|s| s.0.len()).max().unwrap_or(1);
    let norm = |s: &Bits| {
        let mut v = s.0.to_vec();
        v.resize(words, 0);
        v
    };
    let all: Vec<Vec<u64>> = sets.iter().map(norm).collect();
    let excl = norm(exclusive);
    // Distinct sets, the first of each kept, then those no other strictly contains.
    let mut index: HashMap<&Vec<u64>, usize> = HashMap::new();
    let mut distinct: Vec<usize> = Vec::new();
    for (i, s) in all.iter().enumerate() {
        if !index.contains_key(s) {
            index.insert(s, i);
            distinct.push(i);
        }
    }
    let candidates = maximal(&all, &distinct);
    let masks: Vec<Vec<u64>> = candidates.iter().map(|&i| all[i].clone()).collect();
    let mut target = vec![0u64; words];
    for m in &masks {
        for (t, w) in target.iter_mut().zip(m) {
            *t |= w;
        }
    }
    // Members by how few sets hold them: the search branches on the rarest first.
    let members: Vec<usize> = (0..words * 64)
        .filter(|&e| target[e / 64] >> (e % 64) & 1 == 1)
        .collect();
    let holders: Vec<Vec<usize>> = members
        .iter()
        .map(|&e| {
            (0..masks.len())
                .filter(|&k| masks[k][e / 64] >> (e % 64) & 1 == 1)
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&k| (holders[k].len(), members[k]));
    let search = Search {
        steps: std::cell::Cell::new(0),
        masks: &masks,
        excl: &excl,
        members: &members,
        holders: &holders,
        order: &order,
    };
    let lower: usize = target
        .iter()
        .zip(&excl)
        .map(|(t, x)| (t & x).count_ones() as usize)
        .sum();
    // The greedy cover bounds the search from above, and stands when the search runs out of
    // steps: a count of steps, not of seconds, so the same sets give the same cover on every
    // machine.
    let greedy = greedy_cover(&masks, &target);
    let mut chosen = Vec::new();
    let mut found = false;
    for size in lower..=greedy.len() {
        if search.cover(&target, size, &mut chosen) {
            found = true;
            break;
        }
        if search.steps.get() > STEPS {
            break;
        }
    }
    if !found {
        chosen = greedy;
    }
    let mut out: Vec<usize> = chosen.iter().map(|&k| candidates[k]).collect();
    out.sort_unstable();
    out
}

/// The sets of `distinct` (increasing indices into `all`, no two equal) that no other one
/// strictly contains, in the order of `distinct`. A set is only ever held by a larger one, and
/// if by any then by one that nothing holds: so the sets are taken largest first, each held up
/// against the maximal ones found so far only, which are few beside the many small ones.
fn maximal(all: &[Vec<u64>], distinct: &[usize]) -> Vec<usize> {
    let within = |a: &[u64], b: &[u64]| a.iter().zip(b).all(|(x, y)| x & !y == 0);
    let size = |i: usize| all[i].iter().map(|w| w.count_ones()).sum::<u32>();
    let words = all.first().map_or(0, Vec::len);
    let members = |i: usize| {
        all[i].iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| w * 64 + b)
        })
    };
    // A set that holds another holds each of its members: only the kept sets through its
    // member with the fewest are looked at. Sets of one size that differ never hold each
    // other, so the sets of a size are looked at together, in parallel, against the larger
    // ones kept.
    let mut by_size: Vec<(u32, usize)> = distinct.iter().map(|&i| (size(i), i)).collect();
    by_size.sort_by_key(|&(n, i)| (std::cmp::Reverse(n), i));
    let mut through: Vec<Vec<usize>> = vec![Vec::new(); words * 64];
    let mut kept: Vec<usize> = Vec::new();
    let mut at = 0;
    while at < by_size.len() {
        let n = by_size[at].0;
        let end = at + by_size[at..].iter().take_while(|&&(m, _)| m == n).count();
        let fresh: Vec<usize> = by_size[at..end]
            .par_iter()
            .filter_map(|&(_, i)| {
                let held = match members(i).min_by_key(|&e| through[e].len()) {
                    Some(rare) => through[rare].iter().any(|&j| within(&all[i], &all[j])),
                    None => !kept.is_empty(),
                };
                (!held).then_some(i)
            })
            .collect();
        for &i in &fresh {
            kept.push(i);
            for e in members(i) {
                through[e].push(i);
            }
        }
        at = end;
    }
    kept.sort_unstable();
    kept
}

/// The indices of the distinct sets (the first of equal ones) that no other one strictly
/// contains: the only candidates a smallest cover needs, since swapping a set for a larger one
/// never makes a cover worse.
pub fn undominated(sets: &[Bits]) -> Vec<usize> {
    let words = sets.iter().map(|s| s.0.len()).max().unwrap_or(1);
    let all: Vec<Vec<u64>> = sets
        .iter()
        .map(|s| {
            let mut v = s.0.to_vec();
            v.resize(words, 0);
            v
        })
        .collect();
    let mut seen = hashbrown::HashSet::new();
    let distinct: Vec<usize> = (0..all.len()).filter(|&i| seen.insert(&all[i])).collect();
    maximal(&all, &distinct)
}

/// The steps [`smallest_cover`]'s search may take (each a look at every candidate set) before
/// it settles for the greedy cover: the sets of every built-in are proved smallest in far
/// fewer, and a space of millions of positions with hundreds of kinds of them is not left
/// searching for hours.
const STEPS: u64 = 2_000_000;

/// The candidate sets one step of the search may look at: a step among more counts as
/// several, so that the budget bounds the work, not the depth, however many candidates there
/// are.
const LOOKS_PER_STEP: u64 = 64;

/// A cover made by taking, again and again, the set that covers the most of what is left
/// (the first of equals), then dropping, last taken first, each set the others make
/// unneeded.
fn greedy_cover(masks: &[Vec<u64>], target: &[u64]) -> Vec<usize> {
    let gain = |m: &[u64], left: &[u64]| -> u32 {
        m.iter().zip(left).map(|(a, b)| (a & b).count_ones()).sum()
    };
    let mut left = target.to_vec();
    let mut chosen: Vec<usize> = Vec::new();
    while left.iter().any(|&w| w != 0) {
        let (k, _) = masks
            .iter()
            .enumerate()
            .map(|(k, m)| (k, gain(m, &left)))
            .max_by_key(|&(k, g)| (g, std::cmp::Reverse(k)))
            .expect("a set covers what is left");
        for (l, m) in left.iter_mut().zip(&masks[k]) {
            *l &= !m;
        }
        chosen.push(k);
    }
    let mut i = chosen.len();
    while i > 0 {
        i -= 1;
        let mut rest = vec![0u64; target.len()];
        for (j, &k) in chosen.iter().enumerate() {
            if j != i {
                for (r, m) in rest.iter_mut().zip(&masks[k]) {
                    *r |= m;
                }
            }
        }
        if rest == target {
            chosen.remove(i);
        }
    }
    chosen
}

/// A cover of the union of `sets` with no set to spare, made greedily ([`smallest_cover`]'s
/// bound from above), as indices into `sets`: for many sets of many members, where the
/// search would spend its steps and settle for it.
pub fn greedy(sets: &[Bits]) -> Vec<usize> {
    let words = sets.iter().map(|s| s.0.len()).max().unwrap_or(1);
    let masks: Vec<Vec<u64>> = sets
        .iter()
        .map(|s| {
            let mut v = s.0.to_vec();
            v.resize(words, 0);
            v
        })
        .collect();
    let mut target = vec![0u64; words];
    for m in &masks {
        for (t, w) in target.iter_mut().zip(m) {
            *t |= w;
        }
    }
    let mut out = greedy_cover(&masks, &target);
    out.sort_unstable();
    out
}

/// The state shared by the steps of [`smallest_cover`]'s search.
struct Search<'a> {
    /// Steps taken so far, over every size tried.
    steps: std::cell::Cell<u64>,
    masks: &'a [Vec<u64>],
    excl: &'a [u64],
    members: &'a [usize],
    holders: &'a [Vec<usize>],
    order: &'a [usize],
}

impl Search<'_> {
    /// Whether `left` can be covered with at most `room` more sets; the chosen ones are
    /// appended to `chosen`.
    fn cover(&self, left: &[u64], room: usize, chosen: &mut Vec<usize>) -> bool {
        let count: usize = left.iter().map(|w| w.count_ones() as usize).sum();
        if count == 0 {
            return true;
        }
        if room == 0 || self.steps.get() > STEPS {
            return false;
        }
        self.steps
            .set(self.steps.get() + (self.masks.len() as u64).div_ceil(LOOKS_PER_STEP));
        let cells: usize = left
            .iter()
            .zip(self.excl)
            .map(|(l, x)| (l & x).count_ones() as usize)
            .sum();
        if cells > room {
            return false;
        }
        let best = self
            .masks
            .iter()
            .map(|m| {
                m.iter()
                    .zip(left)
                    .map(|(a, b)| (a & b).count_ones() as usize)
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        if best == 0 || best * room < count {
            return false;
        }
        let k = *self
            .order
            .iter()
            .find(|&&k| {
                let e = self.members[k];
                left[e / 64] >> (e % 64) & 1 == 1
            })
            .expect("something is left");
        for &s in &self.holders[k] {
            let next: Vec<u64> = left
                .iter()
                .zip(&self.masks[s])
                .map(|(l, m)| l & !m)
                .collect();
            chosen.push(s);
            if self.cover(&next, room - 1, chosen) {
                return true;
            }
            chosen.pop();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(members: &[usize]) -> Bits {
        let mut b = Bits::new(64);
        for &m in members {
            b.set(m);
        }
        b
    }

    /// Every subset of `sets`, smallest first: the smallest cover by brute force.
    fn brute(sets: &[Bits]) -> usize {
        let union = sets.iter().fold(0u64, |u, s| u | s.0[0]);
        (0u32..1 << sets.len())
            .filter(|&pick| {
                let got = (0..sets.len())
                    .filter(|&i| pick >> i & 1 == 1)
                    .fold(0u64, |u, i| u | sets[i].0[0]);
                got == union
            })
            .map(|pick| pick.count_ones() as usize)
            .min()
            .unwrap()
    }

    #[test]
    fn greed_takes_the_big_set_and_then_drops_it() {
        // The big first set is taken first, then the three that hold 6, 7 and 8 cover it: it
        // is spare, and dropping it leaves the smallest cover.
        let sets = [
            bits(&[0, 1, 2, 3, 4, 5]),
            bits(&[0, 1, 2, 6]),
            bits(&[3, 4, 5, 7]),
            bits(&[2, 3, 8]),
        ];
        let norm: Vec<Vec<u64>> = sets.iter().map(|s| s.0.to_vec()).collect();
        let target = vec![norm.iter().fold(0u64, |u, s| u | s[0])];
        let greedy = greedy_cover(&norm, &target);
        let best = smallest_cover(&sets, &Bits::new(64));
        assert_eq!(best.len(), brute(&sets));
        assert_eq!(greedy, vec![1, 2, 3]);
        assert_eq!(best, vec![1, 2, 3]);
        for cover in [&greedy, &best] {
            let got = cover.iter().fold(0u64, |u, &i| u | sets[i].0[0]);
            assert_eq!(got, target[0]);
        }
    }

    #[test]
    fn the_greedy_cover_has_no_set_to_spare() {
        // Pseudo-random families of 12 sets over 20 members, each checked against brute force.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            let sets: Vec<Bits> = (0..12)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let mut b = Bits::new(64);
                    b.0[0] = x & 0xFFFFF;
                    b
                })
                .collect();
            let norm: Vec<Vec<u64>> = sets.iter().map(|s| s.0.to_vec()).collect();
            let target = vec![norm.iter().fold(0u64, |u, s| u | s[0])];
            let greedy = greedy_cover(&norm, &target);
            for i in 0..greedy.len() {
                let rest = greedy
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .fold(0u64, |u, (_, &k)| u | norm[k][0]);
                assert_ne!(rest, target[0], "set {} is spare", greedy[i]);
            }
            let best = smallest_cover(&sets, &Bits::new(64));
            assert_eq!(best.len(), brute(&sets));
        }
    }
}
