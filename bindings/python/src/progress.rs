//! The Python progress callback, `progress(phase, done, total)` after each
//! prover phase. The prover runs with the GIL released, on a worker thread,
//! so each call takes the GIL for the callback alone. A proof cannot be
//! stopped midway, so an exception the callback raises stops further calls
//! and is raised once the proof is done.

use pyo3::prelude::*;
use starling::Phase;

/// The callback, and the first exception it raised.
pub(crate) struct Reporter {
    callback: Option<Py<PyAny>>,
    failed: Option<PyErr>,
}

impl Reporter {
    pub(crate) fn new(callback: Option<Py<PyAny>>) -> Self {
        Reporter {
            callback,
            failed: None,
        }
    }

    /// Tells the callback that `phase` has ended.
    pub(crate) fn phase(&mut self, phase: &Phase) {
        let Some(callback) = &self.callback else {
            return;
        };
        if self.failed.is_some() {
            return;
        }
        let called = Python::attach(|py| {
            callback
                .call1(py, (phase.name, phase.done, phase.total))
                .map(drop)
        });
        self.failed = called.err();
    }

    /// The callback's exception, if it raised one.
    pub(crate) fn finish(self) -> PyResult<()> {
        self.failed.map_or(Ok(()), Err)
    }
}
