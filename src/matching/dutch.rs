//! caissify-pairings' Dutch edge weights, computed in the core a bracket at a time.
//!
//! caissify's `_compute_bracket_edge_weight` encodes each criterion of FIDE C.04.3 that a pair of players
//! meets as one bit field of the pair's weight (bbpPairings' `computeEdgeWeight` and `insertColorBits`), in
//! Python, one call per pair: n²/2 calls for the round's first weights and as many again over its brackets,
//! most of the round's time once the matchings are in the core. [`Field`] holds what the weight reads of
//! each player (fixed while a round is paired) and [`Field::weight`] is the same function, field for field
//! and bit for bit: `tests/tournament/test_native_matching.py` compares the two on random players.

/// Limbs of a weight: 1,088 bits, more than the 1,000 the table takes.
pub const LIMBS: usize = 17;

pub type Big = [u64; LIMBS];

/// The players of one round as caissify orders them (score descending, then pairing number), and what
/// the weight of a pair reads of them.
pub struct Field {
    pub n: usize,
    score: Vec<f64>,
    /// The player's score group's shift: caissify's `_score_bits` is `1 << shift`.
    shift: Vec<u32>,
    /// Colour preference: 0 none, 1 White, 2 Black.
    pref: Vec<u8>,
    /// 3 absolute, 2 strong, 1 mild, 0 none.
    strength: Vec<u8>,
    /// |colour difference|.
    imbalance: Vec<u64>,
    /// The colour of a trailing run of two or more: 0 none, 1 White, 2 Black, 3.. another value.
    repeated: Vec<u32>,
    /// Float of the last round and of the one before: 0 none, 1 up, 2 down.
    float1: Vec<u8>,
    float2: Vec<u8>,
    /// Per player, whether not a bye candidate; None: no bye candidates (the completion field is 3).
    settled: Option<Vec<bool>>,
    /// n × n: caissify's `_can_pair(a, b)` (b not among a's opponents, a legal colour assignment or the
    /// last round's relaxation for top scorers).
    can_pair: Vec<bool>,
    b: u32,
    sb: u32,
    rounds_played: i64,
}

const UP: u8 = 1;
const DOWN: u8 = 2;

/// `v << pos` ORed into `w` (v fits in 64 bits; pos + 64 within the limbs or the bits past them dropped).
#[inline]
fn or_at(w: &mut Big, v: u64, pos: u32) {
    if v == 0 {
        return;
    }
    let (limb, bit) = ((pos / 64) as usize, pos % 64);
    if limb < LIMBS {
        w[limb] |= v << bit;
    }
    if bit != 0 && limb + 1 < LIMBS {
        w[limb + 1] |= v >> (64 - bit);
    }
}

/// The sum of two powers of two, ORed in at `pos`.
#[inline]
fn or_two_powers(w: &mut Big, a: Option<u32>, b: Option<u32>, pos: u32) {
    match (a, b) {
        (Some(x), Some(y)) if x == y => or_at(w, 2, pos + x),
        (x, y) => {
            for e in [x, y].into_iter().flatten() {
                or_at(w, 1, pos + e);
            }
        }
    }
}

/// The bit length of a weight.
pub fn bit_length(w: &Big) -> u32 {
    for k in (0..LIMBS).rev() {
        if w[k] != 0 {
            return 64 * k as u32 + (64 - w[k].leading_zeros());
        }
    }
    0
}

/// A non-negative weight as caissify's table keeps it: little-endian, `bits / 8 + 1` bytes.
pub fn to_bytes(w: &Big, bits: u32) -> Vec<u8> {
    let len = (bits / 8 + 1) as usize;
    let mut out = Vec::with_capacity(len);
    for k in 0..len {
        out.push((w[k / 8] >> (8 * (k % 8))) as u8);
    }
    out
}

/// What a player brings to the field, as the Python side reads it off caissify's player.
pub struct PlayerIn {
    pub score: f64,
    pub shift: u32,
    pub pref: u8,
    pub strength: u8,
    pub imbalance: u64,
    pub repeated: u32,
    pub float1: u8,
    pub float2: u8,
    pub violates_white: bool,
    pub violates_black: bool,
    pub opponents: Vec<usize>,
}

impl Field {
    /// `relax_above`: in the last round, a pair without a legal colour assignment may still be paired when
    /// one of the two scores more than this (caissify's `_can_pair`, as bbpPairings' `compatible`).
    pub fn new(
        players: Vec<PlayerIn>,
        settled: Option<Vec<bool>>,
        relax_above: Option<f64>,
        b: u32,
        sb: u32,
        rounds_played: i64,
    ) -> Result<Field, String> {
        let n = players.len();
        if settled.as_ref().is_some_and(|s| s.len() != n) {
            return Err("one bye flag a player".into());
        }
        let mut can_pair = vec![true; n * n];
        for (a, p) in players.iter().enumerate() {
            for (c, q) in players.iter().enumerate() {
                let legal = (!p.violates_white && !q.violates_black) || (!p.violates_black && !q.violates_white);
                can_pair[a * n + c] =
                    a != c && (legal || relax_above.is_some_and(|t| p.score > t || q.score > t));
            }
            for &o in &p.opponents {
                if o >= n {
                    return Err(format!("opponent {o} is not one of the {n} players"));
                }
                can_pair[a * n + o] = false;
            }
        }
        Ok(Field {
            n,
            score: players.iter().map(|p| p.score).collect(),
            shift: players.iter().map(|p| p.shift).collect(),
            pref: players.iter().map(|p| p.pref).collect(),
            strength: players.iter().map(|p| p.strength).collect(),
            imbalance: players.iter().map(|p| p.imbalance).collect(),
            repeated: players.iter().map(|p| p.repeated).collect(),
            float1: players.iter().map(|p| p.float1).collect(),
            float2: players.iter().map(|p| p.float2).collect(),
            settled,
            can_pair,
            b,
            sb,
            rounds_played,
        })
    }

    /// The weight of the pair (p1 the higher ranked, p2 the lower), and its bit length: caissify's
    /// `_compute_bracket_edge_weight(p1, p2, ..., in_current_bracket, in_next_bracket, ...)` with its
    /// score-group shifts, bye candidates and the C9 part given (`c9`: each player's rank among the
    /// unplayed games when his score is the bye assignee's, None when C9 does not apply).
    pub fn weight(&self, p1: usize, p2: usize, current: bool, next: bool, c9: Option<&[u64]>) -> (Big, u32) {
        let mut w: Big = [0; LIMBS];
        if !self.can_pair[p1 * self.n + p2] {
            return (w, 0);
        }
        let (b, sb) = (self.b, self.sb);
        let (pref1, pref2) = (self.pref[p1], self.pref[p2]);
        let (str1, str2) = (self.strength[p1], self.strength[p2]);
        let higher = self.score[p1] > self.score[p2];
        let mut s: u32 = 3 * b + 1;
        let floats = [(2, &self.float2), (1, &self.float1)];
        // C19/C18 (two rounds back), C17/C16 (the last round): scores.
        for &(back, fl) in &floats {
            if self.rounds_played < back {
                continue;
            }
            if current && !(fl[p2] == UP && higher) {
                or_at(&mut w, 1, s + self.shift[p1]);
            }
            s += sb;
            if current {
                let x = (fl[p2] == DOWN).then_some(self.shift[p2]);
                let y = (fl[p1] == DOWN).then_some(self.shift[p1]);
                or_two_powers(&mut w, x, y, s);
            }
            s += sb;
        }
        // C15/C14 (two rounds back), C13/C12 (the last round): counts.
        for &(back, fl) in &floats {
            if self.rounds_played < back {
                continue;
            }
            if current && !(fl[p2] == UP && higher) {
                or_at(&mut w, 1, s);
            }
            s += b;
            if current {
                let count = (fl[p2] == DOWN) as u64 + (fl[p1] == DOWN && !higher) as u64;
                or_at(&mut w, count, s);
            }
            s += b;
        }
        if current {
            let same = pref1 == pref2 && pref1 != 0;
            // c_strong
            if !(same && str1 >= 2 && str2 >= 2 && !(str1 == 3 && str2 == 3)) {
                or_at(&mut w, 1, s);
            }
            s += b;
            // c_compat
            if !same {
                or_at(&mut w, 1, s);
            }
            s += b;
            // c_absP
            let mut absp = true;
            if str2 == 3 && str1 == 3 && pref1 == pref2 {
                let (imb2, imb1) = (self.imbalance[p2], self.imbalance[p1]);
                let (rep2, rep1) = (self.repeated[p2], self.repeated[p1]);
                if imb2 == imb1 {
                    if rep2 != 0 && rep2 == rep1 {
                        absp = false;
                    }
                } else {
                    let lower = if imb2 > imb1 { rep1 } else { rep2 };
                    let inverse = if pref2 == 1 { 2 } else { 1 };
                    if lower != 0 && lower == inverse {
                        absp = false;
                    }
                }
            }
            or_at(&mut w, absp as u64, s);
            s += b;
            // c_imb
            if !(self.imbalance[p1] >= 2 && self.imbalance[p2] >= 2 && same) {
                or_at(&mut w, 1, s);
            }
            s += b;
        } else {
            s += 4 * b;
        }
        if let Some(ranks) = c9 {
            or_at(&mut w, ranks[p1] + ranks[p2], s);
        }
        s += 2 * b;
        if next {
            or_at(&mut w, 1, s);
        }
        s += b;
        if next {
            or_at(&mut w, 1, s + self.shift[p1]);
        }
        s += sb;
        if current {
            or_at(&mut w, 1, s);
        }
        s += b;
        if current {
            or_at(&mut w, 1, s + self.shift[p1]);
        }
        s += sb;
        let completion = match &self.settled {
            Some(settled) => 1 + settled[p1] as u64 + settled[p2] as u64,
            None => 3,
        };
        or_at(&mut w, completion, s);
        let bits = if s + 2 > 64 * LIMBS as u32 { u32::MAX } else { bit_length(&w) };
        (w, bits)
    }
}
