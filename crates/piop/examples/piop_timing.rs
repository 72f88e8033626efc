//! Times zerocheck and lincheck proving and verifying on random valid data.
//!
//! `RAYON_NUM_THREADS=1 cargo run --release -p starling-piop --example piop_timing -- 14 15`

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_piop::lincheck::LincheckClaim;
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
    let z: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x & y).collect();
    let size = 1u32 << k;
    let mut random_matrix = || {
        let rows: Vec<Vec<u32>> = (0..size)
            .map(|_| (0..r.gen_range(1..6)).map(|_| r.gen_range(0..size)).collect())
            .collect();
        SparseMatrix::from_rows(&rows)
    };
    let (a0, b0) = (random_matrix(), random_matrix());
    println!(
        "n = {n}, k = {k}: 2^{} witness bits, {} MB per bit vector, rayon threads = {}",
        shape.l(),
        (words * 8) >> 20,
        rayon::current_num_threads()
    );

    let t = Instant::now();
    let (zp, zout) = zerocheck::prove(shape, &a, &b, &z, 0, &mut Transcript::new(b"timing"));
    println!("zerocheck prove  {:>8.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    zerocheck::verify(shape, &zp, 0, &mut Transcript::new(b"timing")).expect("verifies");
    println!("zerocheck verify {:>8.3} ms", t.elapsed().as_secs_f64() * 1e3);

    // The zerocheck's point, with values made true for these random matrices
    // (a and b above are not A z and B z).
    let mut claim = LincheckClaim::from(&zout);
    let zf = starling_piop::claims::fold_instances(shape, &z, &claim.weights);
    let eq_rw = starling_poly::multilinear::eq_table(&claim.wire_point);
    let value = |m: &SparseMatrix| {
        let mut cols = vec![starling_field::Gf128::ZERO; 1 << k];
        m.add_transpose_weighted(&eq_rw, &mut cols);
        cols.iter().zip(&zf).map(|(x, y)| *x * *y).sum()
    };
    claim.a_eval = value(&a0);
    claim.b_eval = value(&b0);
    let t = Instant::now();
    let (lp, _) = lincheck::prove(shape, &a0, &b0, &z, &claim, &mut Transcript::new(b"lc"));
    let lincheck_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("lincheck prove   {:>8.1} ms", lincheck_ms);
    let t = Instant::now();
    lincheck::verify(shape, &a0, &b0, &claim, &lp, &mut Transcript::new(b"lc")).expect("verifies");
    println!(
        "lincheck verify  {:>8.3} ms (nnz = {})",
        t.elapsed().as_secs_f64() * 1e3,
        a0.nnz() + b0.nnz()
    );
    println!(
        "proof bytes: zerocheck {}, lincheck {}",
        zerocheck::Proof::num_bytes(shape),
        lincheck::Proof::num_bytes(shape)
    );
}
