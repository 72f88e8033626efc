//! A statement kind and profile from the names Python passes, through the
//! library's one mapping of names to kinds ([`starling::kind::named`]).

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::PyResult;
use starling::kind::KindParams;
use starling::{Error, Kind, Profile, StatementCircuit};

use crate::errors::Unreadable;

/// The kind `name` with `params`, the command line's names of them as
/// the Python half passes them: a circuit as its Bristol text (the Python
/// half reads a path it is given), a context as hex, `max_len` and
/// `max_leaf_len` in decimal. Names the command line does not have are
/// left out by the Python half.
pub(crate) fn kind_named(name: &str, params: &HashMap<String, String>) -> Result<Arc<dyn Kind>, Error> {
    with_kind_params(params, |p| starling::kind::named(name, p))
}

/// Calls `f` with `params` as the library names them; the circuit is
/// compiled only if `f` asks for it.
pub(crate) fn with_kind_params<T>(
    params: &HashMap<String, String>,
    f: impl FnOnce(&KindParams<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let given = |key: &str| params.get(key).map(String::as_str);
    let compile = |text: &str| {
        StatementCircuit::from_bristol(text).map_err(|e| Error::Input(format!("the circuit: {e}")))
    };
    let compile_given = given("bristol").map(|text| move || compile(text));
    f(&KindParams {
        bristol: compile_given.as_ref().map(|f| f as &dyn Fn() -> _),
        hash: given("hash"),
        scheme: given("scheme"),
        ctx: given("ctx"),
        interface: given("interface"),
        max_len: given("max_len"),
        max_leaf_len: given("max_leaf_len"),
    })
}

/// The security profile named `name` (`default`, `secure`).
pub(crate) fn profile_named(name: &str) -> PyResult<Profile> {
    [Profile::Default, Profile::Secure]
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| Unreadable::new_err(format!("profile: {name:?} is not default or secure")))
}
