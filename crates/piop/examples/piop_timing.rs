//! Times zerocheck and lincheck proving and verifying on random valid data.
//!
//! `RAYON_NUM_THREADS=1 cargo run --release -p starling-piop --example piop_timing -- 14 15`

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_piop::lincheck::{Group, LincheckClaim};
use starling_piop::{lincheck, zerocheck, Shape, SparseMatrix};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (n, k) = (
        args.first().copied().unwrap_or(14),
        args.get(1).copied().unwrap_or(15),
    );
    let shape = Shape::new(n, k).expect("shape");
    let mut r = ChaCha8Rng::seed_from_u64(1);
    let words = shape.num_words();
    let a: Vec<u64> = (0..words).map(|_| r.gen()).collect();
    let b: Vec<u64> = (0..words).map(|_| r.gen()).collect();
    let c: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x & y).collect();
    // The witness the lincheck reads (unrelated to a, b, c: the claims are
    // made true for it below).
    let z: Vec<u64> = (0..words).map(|_| r.gen()).collect();
    let size = 1u32 << k;
    let mut random_rows = || -> Vec<Vec<u32>> {
        (0..size)
            .map(|_| (0..r.gen_range(1..6)).map(|_| r.gen_range(0..size)).collect())
            .collect()
    };
    let (a0, b0) = (
        SparseMatrix::from_rows(&random_rows()),
        SparseMatrix::from_rows(&random_rows()),
    );
    // C0 = I ⊕ N with N about as sparse as A0.
    let mut c_rows = random_rows();
    for (i, row) in c_rows.iter_mut().enumerate() {
        row.insert(0, i as u32);
    }
    let c0 = SparseMatrix::from_rows(&c_rows);
    println!(
        "n = {n}, k = {k}: 2^{} witness bits, {} MB per bit vector, rayon threads = {}",
        shape.l(),
        (words * 8) >> 20,
        rayon::current_num_threads()
    );

    let t = Instant::now();
    let (zp, zout) = zerocheck::prove(shape, &a, &b, &c, 0, &mut Transcript::new(b"timing"));
    println!("zerocheck prove  {:>8.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    zerocheck::verify(shape, &zp, 0, &mut Transcript::new(b"timing")).expect("verifies");
    println!("zerocheck verify {:>8.3} ms", t.elapsed().as_secs_f64() * 1e3);

    // The zerocheck's points, with values made true for z and these random
    // matrices.
    let true_evals = |claim: &mut LincheckClaim, matrices: &[&SparseMatrix]| {
        let zf = starling_piop::claims::fold_instances(shape, &z, &claim.weights);
        let eq_rw = starling_poly::multilinear::eq_table(&claim.wire_point);
        claim.evals = matrices
            .iter()
            .map(|m| {
                let mut cols = vec![starling_field::Gf128::ZERO; 1 << k];
                m.add_transpose_weighted(&eq_rw, &mut cols);
                cols.iter().zip(&zf).map(|(x, y)| *x * *y).sum()
            })
            .collect();
    };
    let (ab_matrices, c_matrices) = ([&a0, &b0], [&c0]);
    let mut ab = LincheckClaim::ab_from(&zout);
    let mut cc = LincheckClaim::c_from(&zout);
    true_evals(&mut ab, &ab_matrices);
    true_evals(&mut cc, &c_matrices);
    let groups = [
        Group {
            matrices: &ab_matrices,
            claim: &ab,
        },
        Group {
            matrices: &c_matrices,
            claim: &cc,
        },
    ];
    let t = Instant::now();
    let (lp, _) = lincheck::prove(
        shape,
        &groups,
        &z,
        &mut Transcript::new(b"lc"),
        &mut starling_piop::cover::Plain,
    );
    let lincheck_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("lincheck prove   {:>8.1} ms", lincheck_ms);
    let t = Instant::now();
    lincheck::verify(shape, &groups, &lp, &mut Transcript::new(b"lc")).expect("verifies");
    println!(
        "lincheck verify  {:>8.3} ms (nnz = {})",
        t.elapsed().as_secs_f64() * 1e3,
        a0.nnz() + b0.nnz() + c0.nnz()
    );
    println!(
        "proof bytes: zerocheck {}, lincheck {}",
        zerocheck::Proof::num_bytes(shape),
        lincheck::Proof::num_bytes(shape, groups.len())
    );
}
