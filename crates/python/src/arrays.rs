//! Integer arrays from Python, taken exactly: the caller's array as it is where it already has
//! the dtype wanted, else a conversion that loses nothing. A float, bool or object array is a
//! `TypeError`, and a value that does not fit the type wanted a `ValueError` naming where it
//! is: never a value wrapped, truncated or rounded into another one.

use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::errors::{Error, Result};

/// The values of an integer array (or anything `numpy.asarray` makes one of), flattened in C
/// order, each converted to `T`, with the array's shape. `what` names the argument in errors;
/// `out_of_range(flat index, value)` makes the error of a value that `T` cannot hold.
pub(crate) fn exact_integers<T>(
    value: &Bound<'_, PyAny>,
    what: &str,
    out_of_range: impl Fn(usize, i128) -> Error,
) -> Result<(Vec<T>, Vec<usize>)>
where
    T: TryFrom<i64> + TryFrom<u64> + numpy::Element + Copy,
{
    let py = value.py();
    let numpy = py.import("numpy").map_err(python)?;
    let array = numpy.call_method1("asarray", (value,)).map_err(|e| {
        if cannot_run(py, &e) {
            Error::Python(e)
        } else {
            Error::BadArgument(format!("{what}: {e}"))
        }
    })?;
    if let Ok(exact) = array.cast::<PyArrayDyn<T>>() {
        let exact = exact.try_readonly().map_err(|_| being_written(what))?;
        let shape = exact.shape().to_vec();
        // `as_slice` also takes Fortran-ordered arrays, in memory order: only C order is
        // the order wanted.
        let values = match exact.as_slice() {
            Ok(values) if exact.is_c_contiguous() => values.to_vec(),
            _ => exact.as_array().iter().copied().collect(),
        };
        return Ok((values, shape));
    }
    let dtype = array.getattr("dtype").map_err(python)?;
    let kind: String = dtype
        .getattr("kind")
        .map_err(python)?
        .extract()
        .map_err(python)?;
    // Every signed integer fits an int64 and every unsigned one a uint64: widening loses
    // nothing, and each value is then checked against `T`.
    let wide = match kind.as_str() {
        "i" => "int64",
        "u" => "uint64",
        _ => {
            return Err(Error::ArgumentType(
                format!("{what} must be integers, not an array of dtype {dtype}").into(),
            ))
        }
    };
    // `ascontiguousarray` makes a 0-d array one of shape (1,): the shape is the array's own.
    let shape: Vec<usize> = array
        .getattr("shape")
        .map_err(python)?
        .extract()
        .map_err(python)?;
    let widened = numpy
        .call_method1("ascontiguousarray", (&array, wide))
        .map_err(python)?;
    let values = if kind == "i" {
        convert::<i64, T>(&widened, what, &out_of_range)?
    } else {
        convert::<u64, T>(&widened, what, &out_of_range)?
    };
    Ok((values, shape))
}

/// The values of `widened` (a contiguous array of `W`, the caller's own where it was one
/// already) as `T`, each checked.
fn convert<W, T>(
    widened: &Bound<'_, PyAny>,
    what: &str,
    out_of_range: &impl Fn(usize, i128) -> Error,
) -> Result<Vec<T>>
where
    W: numpy::Element + Copy + Into<i128>,
    T: TryFrom<W>,
{
    let widened = widened
        .cast::<PyArrayDyn<W>>()
        .map_err(|e| python(e.into()))?;
    let widened = widened.try_readonly().map_err(|_| being_written(what))?;
    widened
        .as_slice()
        .map_err(|e| Error::BadArgument(e.to_string()))?
        .iter()
        .enumerate()
        .map(|(i, &v)| T::try_from(v).map_err(|_| out_of_range(i, v.into())))
        .collect::<Result<Vec<T>>>()
}

/// An array that a call running in another thread is writing (a `copy=False` env's own
/// buffer, being filled), which cannot be read without a race.
fn being_written(what: &str) -> Error {
    Error::Busy(format!(
        "{what}: the array is being written by a call running in another thread (a \
         copy=False env's own array, say); pass a copy, or wait for that call"
    ))
}

/// A Python error while converting: one that says the conversion could not run
/// ([`cannot_run`]) raised again as it is, any other (a broken `__array__`, say) as our
/// `ValueError`.
fn python(e: PyErr) -> Error {
    Python::attach(|py| {
        if cannot_run(py, &e) {
            Error::Python(e)
        } else {
            Error::BadArgument(e.to_string())
        }
    })
}

/// Whether `e` says the conversion could not run rather than that the value was wrong: a
/// `MemoryError`, or an exception that is no `Exception` (`KeyboardInterrupt`, `SystemExit`).
fn cannot_run(py: Python<'_>, e: &PyErr) -> bool {
    e.is_instance_of::<pyo3::exceptions::PyMemoryError>(py)
        || !e.is_instance_of::<pyo3::exceptions::PyException>(py)
}
