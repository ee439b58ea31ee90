//! A bounded helpmate search of our own (iterative deepening, limited to a
//! budget of nodes), used when a budget below CHA-Solver's own bound is given.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use chess::{BitBoard, Board, ChessMove, MoveGen, Piece, EMPTY};

use super::BOUNDED_MAX_PLY;

pub(super) const LIGHT: BitBoard = BitBoard(0x55AA_55AA_55AA_55AA);
pub(super) const DARK: BitBoard = BitBoard(0xAA55_AA55_AA55_AA55);

/// shakmaty's `has_insufficient_material`, on a `chess::Board`.
pub(super) fn insufficient(b: &Board, c: chess::Color) -> bool {
    let ours = *b.color_combined(c);
    let theirs = *b.color_combined(!c);
    if ours & (*b.pieces(Piece::Pawn) | *b.pieces(Piece::Rook) | *b.pieces(Piece::Queen)) != EMPTY {
        return false;
    }
    if ours & *b.pieces(Piece::Knight) != EMPTY {
        return ours.popcnt() <= 2
            && theirs & !*b.pieces(Piece::King) & !*b.pieces(Piece::Queen) == EMPTY;
    }
    if ours & *b.pieces(Piece::Bishop) != EMPTY {
        let bishops = *b.pieces(Piece::Bishop);
        let same = bishops & DARK == EMPTY || bishops & LIGHT == EMPTY;
        return same && *b.pieces(Piece::Knight) == EMPTY && *b.pieces(Piece::Pawn) == EMPTY;
    }
    true
}

/// `chess::Board` hashes itself as its 64-bit Zobrist key; pass it through.
#[derive(Default)]
pub(super) struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

pub(super) type BoardMap<V> = HashMap<Board, V, BuildHasherDefault<ZobristHasher>>;

pub(super) enum Bounded {
    Found(Vec<ChessMove>),
    /// Every line ends (mate by the other side, stalemate, insufficient
    /// material) before the depth limit without mate: provably unwinnable.
    Exhausted,
    OutOfBudget,
}

pub(super) struct BoundedSearch {
    pub(super) winner: chess::Color,
    pub(super) nodes: u64,
    pub(super) budget: u64,
    pub(super) out_of_budget: bool,
    /// Set when a line was cut short by the depth limit or the budget.
    pub(super) cut: bool,
    /// Position -> (plies left it was searched with, whether that was cut).
    pub(super) tt: BoardMap<(u8, bool)>,
    pub(super) moves: Vec<ChessMove>,
}

impl BoundedSearch {
    pub(super) fn order(&self, b: &Board) -> Vec<(i32, ChessMove, Board)> {
        let winner_to_move = b.side_to_move() == self.winner;
        let mut children: Vec<(i32, ChessMove, Board)> = MoveGen::new_legal(b)
            .map(|m| {
                let child = b.make_move_new(m);
                let capture = b.piece_on(m.get_dest()).is_some();
                let mut score = 0;
                if winner_to_move {
                    if *child.checkers() != EMPTY {
                        score += 8;
                    }
                    if m.get_promotion() == Some(Piece::Queen) {
                        score += 4;
                    }
                    if capture {
                        score += 2;
                    }
                } else {
                    // The loser helps: hemming its own king in is good,
                    // taking the winner's material rarely is.
                    if capture {
                        score -= 4;
                    }
                    if b.piece_on(m.get_source()) == Some(Piece::King) {
                        score += 1;
                    }
                }
                (score, m, child)
            })
            .collect();
        children.sort_by(|a, c| c.0.cmp(&a.0));
        children
    }

    pub(super) fn search(&mut self, b: &Board, left: u8) -> Option<Vec<ChessMove>> {
        let has_moves = MoveGen::new_legal(b).len() > 0;
        if !has_moves {
            if b.side_to_move() != self.winner && *b.checkers() != EMPTY {
                return Some(self.moves.clone());
            }
            return None;
        }
        if insufficient(b, self.winner) {
            return None;
        }
        if left == 0 {
            self.cut = true;
            return None;
        }
        if let Some(&(done, was_cut)) = self.tt.get(b) {
            if done >= left {
                self.cut |= was_cut;
                return None;
            }
        }
        let outer_cut = std::mem::replace(&mut self.cut, false);
        for (_, m, child) in self.order(b) {
            self.nodes += 1;
            if self.nodes > self.budget {
                self.out_of_budget = true;
                self.cut = true;
                return None;
            }
            self.moves.push(m);
            if let Some(line) = self.search(&child, left - 1) {
                return Some(line);
            }
            self.moves.pop();
            if self.out_of_budget {
                return None;
            }
        }
        let cut_here = self.cut;
        self.tt.insert(*b, (left, cut_here));
        self.cut = outer_cut || cut_here;
        None
    }
}

pub(super) fn bounded_helpmate(board: &Board, winner: chess::Color, budget: u64) -> Bounded {
    let mut s = BoundedSearch {
        winner,
        nodes: 0,
        budget,
        out_of_budget: false,
        cut: false,
        tt: BoardMap::default(),
        moves: Vec::with_capacity(BOUNDED_MAX_PLY as usize),
    };
    for depth in 1..=BOUNDED_MAX_PLY {
        s.cut = false;
        s.moves.clear();
        if let Some(line) = s.search(board, depth) {
            return Bounded::Found(line);
        }
        if s.out_of_budget {
            return Bounded::OutOfBudget;
        }
        if !s.cut {
            return Bounded::Exhausted;
        }
    }
    Bounded::OutOfBudget
}
