//! Perft: counts leaf nodes of the legal move tree, wholly in Rust.
//!
//! The root moves are shared out among threads (one per core, at most
//! `threads`); the GIL is released for the whole job.

use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::prelude::*;
use shakmaty::{Chess, Move, Position as _};

use crate::position::{uci_in, Position};

fn count(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += count(&child, depth - 1);
    }
    total
}

/// Counts per root move, computed on up to `threads` threads.
fn divide(pos: &Chess, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        // No move is made at depth 0: the one leaf is the root itself.
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let mut results: Vec<(Move, u64)> = moves.iter().map(|&m| (m, 0)).collect();
    let next = AtomicUsize::new(0);
    let workers = threads.max(1).min(moves.len().max(1));
    let partials: Vec<Vec<(usize, u64)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= moves.len() {
                            break;
                        }
                        let mut child = pos.clone();
                        child.play_unchecked(moves[i]);
                        mine.push((i, count(&child, depth - 1)));
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("perft worker")).collect()
    });
    for part in partials {
        for (i, n) in part {
            results[i].1 = n;
        }
    }
    results
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Number of leaf nodes at `depth` from `position`.
#[pyfunction]
#[pyo3(signature = (position, depth, threads = None))]
pub fn perft(py: Python<'_>, position: &Position, depth: u32, threads: Option<usize>) -> u64 {
    let pos = position.pos.clone();
    let threads = threads.unwrap_or_else(default_threads);
    py.detach(move || {
        if depth <= 2 || threads <= 1 {
            count(&pos, depth)
        } else {
            divide(&pos, depth, threads).iter().map(|(_, n)| n).sum()
        }
    })
}

/// Leaf counts below each root move, as (UCI, count) in move-generation order.
/// At depth 0 no move is made, so the list is empty (the count is 1).
#[pyfunction]
#[pyo3(signature = (position, depth, threads = None))]
pub fn perft_divide(
    py: Python<'_>,
    position: &Position,
    depth: u32,
    threads: Option<usize>,
) -> Vec<(String, u64)> {
    let pos = position.pos.clone();
    let threads = threads.unwrap_or_else(default_threads);
    let root = pos.clone();
    let results = py.detach(move || divide(&pos, depth, threads));
    results.into_iter().map(|(m, n)| (uci_in(&root, m), n)).collect()
}
