//! Circuits shared by the end-to-end tests.

#![allow(dead_code)]

use std::sync::Arc;

use starling::{StatementCircuit, StatementKind};

/// A small Bristol circuit: 4-bit x, y; outputs x AND y, and x XOR NOT y.
pub const SMALL_BRISTOL: &str = "12 20\n2 4 4\n2 4 4\n\n\
    2 1 0 4 8 AND\n2 1 1 5 9 AND\n2 1 2 6 10 AND\n2 1 3 7 11 AND\n\
    1 1 4 12 INV\n1 1 5 13 INV\n1 1 6 14 INV\n1 1 7 15 INV\n\
    2 1 0 12 16 XOR\n2 1 1 13 17 XOR\n2 1 2 14 18 XOR\n2 1 3 15 19 XOR\n";

/// The circuit of every statement kind: the three hashes and a small Bristol circuit.
pub fn every_kind() -> Vec<Arc<StatementCircuit>> {
    let mut all: Vec<_> = [
        StatementKind::Sha256,
        StatementKind::Blake3,
        StatementKind::KeccakF1600,
    ]
    .into_iter()
    .map(|k| StatementCircuit::builtin(k).unwrap())
    .collect();
    all.push(StatementCircuit::from_bristol(SMALL_BRISTOL).unwrap());
    all
}
