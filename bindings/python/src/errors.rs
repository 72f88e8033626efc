//! Starling's errors as the package's exceptions, split as the command
//! line's exit codes split them: 1 (a rejected proof, or a false statement
//! there is nothing to prove of) is `Rejected`, 2 (an unreadable proof file,
//! inputs text or parameter) is `Unreadable`, 3 (a bug) is the base `Error`.
//! The exception classes are defined in Python (`starling/errors.py`), so
//! that `Unreadable` can also be a `ValueError`.

use pyo3::PyErr;
use starling::Error as StarlingError;

pyo3::import_exception!(starling.errors, Error);
pyo3::import_exception!(starling.errors, Rejected);
pyo3::import_exception!(starling.errors, Unreadable);

/// The exception for `e`, with the message the command line prints.
pub(crate) fn to_py(e: StarlingError) -> PyErr {
    let message = e.to_string();
    match e {
        StarlingError::Rejected(_) | StarlingError::False(_) => Rejected::new_err(message),
        StarlingError::Input(_) | StarlingError::Malformed(_) => Unreadable::new_err(message),
        StarlingError::Internal(_) => Error::new_err(message),
    }
}
