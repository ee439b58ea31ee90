//! Bulk checking of recorded games: is each game in a PGN database a legal
//! game, and is its recorded result the one the Laws give?
//!
//! The pipeline, all in Rust, one stage a module:
//!
//! 1. input (`crate::input::open_input`): a file or standard input, plain,
//!    gzip or zstd (told by the magic bytes), read through a byte counter
//!    (the progress bar).
//! 2. [`split`]: cuts the byte stream into games where a game ends
//!    (`crate::pgn::gameend`, the rule `convert`'s reader follows too: after
//!    its result, or at a blank line followed by a tag pair or the end of the
//!    input; a tag line after movetext), remembering the line each game
//!    starts on, and packs whole games into batches of bounded size. A
//!    comment left open does not swallow the rest of the file: a tag line
//!    after a blank line ends it.
//! 3. [`pipeline`]: the tag section of each game is read by `crate::tags` as
//!    a careful reader would (a quote not escaped in a value is reported and
//!    kept, tag sections with no movetext are games without moves), then the
//!    movetext by `pgn_reader` (one reader per batch) with the [`visitor`],
//!    which plays the main line on a shakmaty position and applies the
//!    end-of-game rules of the edition ([`rules`]) after every ply. Tokens
//!    that `pgn_reader` passes over silently are found by the [`scan`]
//!    beforehand and read by the move grammar (`crate::notation`: FIDE
//!    promotions `a8Q`, long algebraic `Ng1-f3`, UCI `g1f3`, figurines) or
//!    reported as unreadable. The [`judgement`] then sets the recorded
//!    result against the Laws'. With `--fix` the worker also writes the game
//!    as the Laws have it, with `--json` the game's JSON ([`output`]).
//!    With one job everything runs on the calling thread; with more, one
//!    reader thread splits, N workers check, and the batches come back in
//!    input order. At most `4 × jobs` batches are in flight, so memory stays
//!    bounded whatever the file size.
//! 4. [`binding`]: `CheckRun`, iterated from Python a batch at a time, each
//!    batch a `CheckBatch`; the edition's rules are read from the Python
//!    `Edition` it is given.
//!
//! Dead positions and "could the winner mate?" are decided as the arbiter
//! decides them (`chesslaws.mating`: CHA-Solver's full analysis, the same
//! Rust code), so that `check` and `convert` give one judgement. After every
//! ply only the strict insufficient-material test runs (a few bit
//! operations). A position once dead stays dead, so at the end of the game
//! the judgement searches the last position where it may be dead (each side
//! has at most minor pieces, or pawns that are all stopped, or a queen or
//! rook behind a wall of pawns locked head to head; looked at through forced
//! play, and CHA-Solver's answers kept by board, `crate::dead::SolvedCache`);
//! when it is not shown alive, it goes back to a position shown alive and
//! forward to the first dead one, the ply the arbiter would have ended the
//! game at. The result of a game won by resignation, on time or by an
//! arbiter's decision, and a draw on time, are judged by the same analysis of
//! the last position, behind the same gate; which of those endings a record
//! names (its `Termination` tag or result comment, read through the table
//! `terminations.tsv`, and its clocks) is read by `crate::ending`, the one
//! reading `chesslaws convert` makes too.

mod binding;
mod judgement;
mod output;
mod pipeline;
mod rules;
mod scan;
mod split;
mod stated;
mod visitor;

pub use binding::register;

/// A game longer than this is cut (and reported): memory stays bounded.
pub const MAX_GAME_BYTES: usize = 16 << 20;
const BATCH_BYTES: usize = 512 << 10;
const BATCH_GAMES: usize = 256;
const LINE_LIMIT: usize = 1 << 20;

// ---------------------------------------------------------------------------
// Reports.

/// One finding. `rule` is a key of the edition's article table
/// (`chesslaws.editions`), empty for a fault of the PGN text itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: &'static str,
    pub ply: u32,
    pub mv: String,
    pub rule: &'static str,
    pub text: String,
}

#[derive(Debug, Clone, Default)]
pub struct GameReport {
    pub number: u64,
    pub line: u64,
    pub tags: Vec<(String, String)>,
    pub result: Option<String>,
    pub plies: u32,
    pub findings: Vec<Finding>,
    /// Remarks that are no finding: a reason for the ending the record states and the moves do not
    /// support, the result being the Laws' (`stated`).
    pub notes: Vec<String>,
    /// The result the Laws give, when the record gives another one.
    pub fix: Option<Fix>,
    /// The game was read to its end (no illegal or unreadable move, no
    /// broken PGN that stopped the check).
    pub readable: bool,
    /// With `--fix`: the game as it should be written.
    pub fixed_text: Option<Vec<u8>>,
    /// In JSON mode: the game's JSON after its number (written by the
    /// worker threads; only the number is added in file order).
    pub json_rest: Option<String>,
}

/// What `--fix` changes in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fix {
    pub result: &'static str,
    pub rule: &'static str,
    /// The record goes on after the end at this ply: cut it there.
    pub cut_ply: Option<u32>,
}

const DRAW: &str = "1/2-1/2";
