//! Integer arguments from Python, taken exactly: any `int`, or an object with `__index__` such
//! as a numpy integer, checked against the range its parameter takes, with a `ValueError`
//! that names the argument and the value given. pyo3's conversion straight to a Rust integer
//! type raises `OverflowError` for a value outside the type, naming neither (`except
//! ValueError` does not catch it). A bool is refused (`TypeError`): `True` given as an action
//! or a count is a mistake, not the number 1.

use std::fmt;

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::{Error, Result};

/// An integer argument: its value where it fits an `i64` or a `u64` (every value any
/// parameter here takes does), else its decimal text, for the message that refuses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Int {
    /// A value within `i64::MIN..=u64::MAX`.
    Fits(i128),
    /// A value beyond that, as Python writes it.
    Huge(String),
}

impl Int {
    /// The value as a `T`, where it fits.
    pub(crate) fn get<T: TryFrom<i128>>(&self) -> Option<T> {
        match self {
            Int::Fits(value) => T::try_from(*value).ok(),
            Int::Huge(_) => None,
        }
    }

    /// The value as a `T` of 0 or more, or a `ValueError` naming the argument and its range.
    pub(crate) fn unsigned<T: Unsigned>(&self, name: &str) -> Result<T> {
        self.at_least(0, name)
    }

    /// The value as a `T` of 1 or more (a count of things that must be some), or a
    /// `ValueError` naming the argument and its range.
    pub(crate) fn positive<T: Unsigned>(&self, name: &str) -> Result<T> {
        self.at_least(1, name)
    }

    fn at_least<T: Unsigned>(&self, least: i128, name: &str) -> Result<T> {
        self.get::<T>()
            .filter(|_| matches!(self, Int::Fits(v) if *v >= least))
            .ok_or_else(|| {
                Error::BadArgument(format!(
                    "{name} must be an integer from {least} to {}, not {self}",
                    T::MAX
                ))
            })
    }
}

impl From<i64> for Int {
    fn from(value: i64) -> Int {
        Int::Fits(value.into())
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Fits(value) => write!(f, "{value}"),
            Int::Huge(text) => f.write_str(text),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an integer, not a bool"));
        }
        // The common case first: one conversion, no text.
        match obj.extract::<i64>() {
            Ok(value) => Ok(Int::from(value)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => match obj.extract::<u64>() {
                Ok(value) => Ok(Int::Fits(value.into())),
                Err(_) => Ok(Int::Huge(obj.str()?.to_string())),
            },
            Err(e) => Err(e),
        }
    }
}

/// The unsigned widths [`Int::unsigned`] converts to, with their largest value for its message.
pub(crate) trait Unsigned: TryFrom<i128> {
    /// The largest value.
    const MAX: u128;
}

macro_rules! unsigned_widths {
    ($($t:ty),*) => {$(impl Unsigned for $t { const MAX: u128 = <$t>::MAX as u128; })*};
}
unsigned_widths!(u8, u32, u64, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_name_the_argument_and_the_value_given() {
        assert_eq!(Int::Fits(255).unsigned::<u8>("men").unwrap(), 255);
        assert_eq!(Int::Fits(0).unsigned::<u64>("seed").unwrap(), 0);
        let huge = Int::Huge("10000000000000000000000000000000000000000".into());
        for (value, text) in [
            (Int::Fits(-1), "-1"),
            (Int::Fits(256), "256"),
            (huge.clone(), "10000000000000000000000000000000000000000"),
        ] {
            let err = value.unsigned::<u8>("max_men").unwrap_err().to_string();
            assert_eq!(
                err,
                format!("max_men must be an integer from 0 to 255, not {text}")
            );
        }
        assert_eq!(
            Int::Fits(0)
                .positive::<usize>("num_envs")
                .unwrap_err()
                .to_string(),
            format!(
                "num_envs must be an integer from 1 to {}, not 0",
                usize::MAX
            )
        );
        assert_eq!(Int::Fits(1).positive::<usize>("num_envs").unwrap(), 1);
        assert_eq!(huge.get::<i64>(), None);
        assert_eq!(Int::Fits(-5).get::<i64>(), Some(-5));
    }
}
