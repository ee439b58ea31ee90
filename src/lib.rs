//! Native rules core of chesslaws.
//!
//! Positions, legal moves, notation and perft come from `shakmaty`; this
//! module only binds them to Python and names every failure precisely. It
//! does no I/O.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod blitz_1997;
mod check;
mod clocks;
mod dead;
mod ending;
mod input;
mod matching;
mod notation;
mod perft;
mod pgn;
mod position;
mod tags;
mod terminations;

create_exception!(_core, ChessLawsError, PyException, "Base class of every error chesslaws raises.");
create_exception!(_core, InvalidInput, ChessLawsError, "Input that cannot be read at all.");
create_exception!(_core, InvalidFen, InvalidInput, "A FEN that cannot be read; `field` names the part that is wrong.");
create_exception!(_core, UnreadableMove, InvalidInput, "A move that is not written in any notation chesslaws reads.");
create_exception!(_core, IllegalMove, ChessLawsError, "A readable move that is not legal in the position.");
create_exception!(_core, AmbiguousMove, ChessLawsError, "A move that fits more than one legal move.");
create_exception!(_core, WrongState, ChessLawsError, "An action that is not allowed in the current state.");

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ChessLawsError", py.get_type::<ChessLawsError>())?;
    m.add("InvalidInput", py.get_type::<InvalidInput>())?;
    m.add("InvalidFen", py.get_type::<InvalidFen>())?;
    m.add("UnreadableMove", py.get_type::<UnreadableMove>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("AmbiguousMove", py.get_type::<AmbiguousMove>())?;
    m.add("WrongState", py.get_type::<WrongState>())?;
    m.add_class::<position::Position>()?;
    m.add_function(wrap_pyfunction!(perft::perft, m)?)?;
    m.add_function(wrap_pyfunction!(perft::perft_divide, m)?)?;
    m.add("STARTING_FEN", position::STARTING_FEN)?;
    check::register(m)?;
    blitz_1997::register(m)?;
    terminations::register(m)?;
    ending::register(m)?;
    dead::register(m)?;
    pgn::register(m)?;
    matching::register(m)?;
    Ok(())
}
