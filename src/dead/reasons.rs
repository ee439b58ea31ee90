//! The reasons given with a verdict: the material of each side, the files
//! locked by pawns, a helpmate line in numbered SAN.

use shakmaty::{Bitboard, Chess, Color, Position as _};

use super::side;

pub(super) fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("a {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "king, light-squared bishop and 3 pawns".
pub(super) fn material_of(pos: &Chess, c: Color) -> String {
    let b = pos.board();
    let ours = b.by_color(c);
    let mut parts: Vec<String> = vec!["king".into()];
    let q = (ours & b.queens()).count() as u32;
    let r = (ours & b.rooks()).count() as u32;
    let n = (ours & b.knights()).count() as u32;
    let bl = (ours & b.bishops() & Bitboard::LIGHT_SQUARES).count() as u32;
    let bd = (ours & b.bishops() & Bitboard::DARK_SQUARES).count() as u32;
    let p = (ours & b.pawns()).count() as u32;
    if q > 0 {
        parts.push(plural(q, "queen", "queens"));
    }
    if r > 0 {
        parts.push(plural(r, "rook", "rooks"));
    }
    if bl > 0 {
        parts.push(plural(bl, "light-squared bishop", "light-squared bishops"));
    }
    if bd > 0 {
        parts.push(plural(bd, "dark-squared bishop", "dark-squared bishops"));
    }
    if n > 0 {
        parts.push(plural(n, "knight", "knights"));
    }
    if p > 0 {
        parts.push(plural(p, "pawn", "pawns"));
    }
    if parts.len() == 1 {
        return "a lone king".into();
    }
    let last = parts.pop().unwrap_or_default();
    format!("{} and {}", parts.join(", "), last)
}

pub(super) fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!("{} and {}", items[..items.len() - 1].join(", "), items[items.len() - 1]),
    }
}

/// Files on which a white pawn stands directly in front of a black pawn.
pub(super) fn locked_files(pos: &Chess) -> Vec<String> {
    let b = pos.board();
    let white = b.by_color(Color::White) & b.pawns();
    let black = b.by_color(Color::Black) & b.pawns();
    let mut files: Vec<char> = white
        .into_iter()
        .filter(|sq| sq.offset(8).is_some_and(|up| black.contains(up)))
        .map(|sq| sq.file().char())
        .collect();
    files.sort_unstable();
    files.dedup();
    files.into_iter().map(|f| f.to_string()).collect()
}

/// The reason for a proven "cannot mate" that is not a plain material case.
pub(super) fn unwinnable_reason(pos: &Chess, color: Color, how: &str) -> String {
    let b = pos.board();
    let mut facts: Vec<String> = Vec::new();
    let files = locked_files(pos);
    if !files.is_empty() {
        let n = files.len();
        facts.push(if n == 1 {
            format!("the pawns on the {}-file are locked head to head", files[0])
        } else {
            format!("the pawns are locked head to head on the {} files", join_and(&files))
        });
    }
    let wb = b.by_color(Color::White) & b.bishops();
    let bb = b.by_color(Color::Black) & b.bishops();
    let one_colour = |x: Bitboard| {
        x.any() && ((x & Bitboard::LIGHT_SQUARES).is_empty() || (x & Bitboard::DARK_SQUARES).is_empty())
    };
    if one_colour(wb) && one_colour(bb) && (wb & Bitboard::LIGHT_SQUARES).any() != (bb & Bitboard::LIGHT_SQUARES).any() {
        facts.push("the bishops run on squares of opposite colours".into());
    }
    let material = format!(
        "{} has {}, {} has {}",
        side(color),
        material_of(pos, color),
        side(!color),
        material_of(pos, !color)
    );
    if facts.is_empty() {
        format!(
            "No series of legal moves lets {} checkmate ({}; {}).",
            side(color),
            material,
            how
        )
    } else {
        format!(
            "No series of legal moves lets {} checkmate: {} ({}; {}).",
            side(color),
            join_and(&facts),
            material,
            how
        )
    }
}

/// The reason when shakmaty's strict insufficient-material test holds.
pub(super) fn material_reason(pos: &Chess, color: Color) -> String {
    let b = pos.board();
    let ours = b.by_color(color);
    let w = side(color);
    let l = side(!color);
    if ours.count() == 1 {
        return format!("{w} has a lone king.");
    }
    if (ours & b.knights()).any() {
        let theirs = material_of(pos, !color);
        return format!(
            "{w} has only a king and a knight, and {l} has {theirs}: a lone knight cannot checkmate \
             unless a pawn, knight, bishop or rook of {l} blocks its own king."
        );
    }
    let light = (b.bishops() & Bitboard::DARK_SQUARES).is_empty();
    let (on, off) = if light { ("light", "dark") } else { ("dark", "light") };
    format!(
        "{w} has only a king and bishops, every bishop on the board stands on {on} squares and there \
         are no pawns or knights: the {off} squares around {l}'s king can be neither attacked nor blocked."
    )
}

/// "23... Kg7 24. Qh7#" from the position's move number.
pub(super) fn numbered_line(pos: &Chess, sans: &[String]) -> String {
    let mut out = Vec::with_capacity(sans.len() + sans.len() / 2 + 1);
    let mut number = pos.fullmoves().get();
    let mut turn = pos.turn();
    for (i, san) in sans.iter().enumerate() {
        match turn {
            Color::White => out.push(format!("{number}. {san}")),
            Color::Black => {
                if i == 0 {
                    out.push(format!("{number}... {san}"));
                } else {
                    out.push(san.clone());
                }
                number += 1;
            }
        }
        turn = !turn;
    }
    out.join(" ")
}
