//! The three protocols in the order the top layer runs them, on a random
//! circuit with a valid batch witness: every claim left on z must hold, and
//! a broken witness must be caught somewhere. The circuits here have
//! `C = I` (`c = z`): the lincheck's second group is the identity matrix at
//! the zerocheck's claim on `c`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_piop::cover::Plain;
use starling_piop::lincheck::{Group, LincheckClaim};
use starling_piop::{lincheck, wiring, zerocheck, EvalClaim, PiopError, Shape, SparseMatrix};

/// A random circuit: wire 0 is the constant (A = B = {0}); wire i > 0 reads
/// only wires below i, so evaluating in order gives a valid witness.
fn random_circuit(k: usize, r: &mut ChaCha8Rng) -> (SparseMatrix, SparseMatrix) {
    let size = 1u32 << k;
    let mut a = vec![vec![0u32]];
    let mut b = vec![vec![0u32]];
    for i in 1..size {
        let row = |r: &mut ChaCha8Rng| -> Vec<u32> {
            let len = r.gen_range(1..4);
            (0..len).map(|_| r.gen_range(0..i)).collect()
        };
        a.push(row(r));
        b.push(row(r));
    }
    (SparseMatrix::from_rows(&a), SparseMatrix::from_rows(&b))
}

/// `C0 = I`, as a sparse matrix.
fn identity(k: usize) -> SparseMatrix {
    let rows: Vec<[u32; 1]> = (0..1u32 << k).map(|i| [i]).collect();
    SparseMatrix::from_rows(&rows)
}

/// Evaluates the circuit on all instances; wire 1.. of the first `2^p` wires
/// are free inputs (`z = z * 1`) filled with random bits. `c` is what the
/// prover hands the zerocheck as `C z`: `z` itself for an honest prover.
struct Batch {
    z: Vec<u64>,
    a: Vec<u64>,
    b: Vec<u64>,
    c: Vec<u64>,
}

fn xor_row(row: &[u32], z: &[u64], wpw: usize, w: usize) -> u64 {
    row.iter().fold(0, |acc, &c| acc ^ z[c as usize * wpw + w])
}

fn evaluate(
    shape: Shape,
    p: usize,
    a0: &mut SparseMatrix,
    b0: &mut SparseMatrix,
    r: &mut ChaCha8Rng,
) -> Batch {
    let wpw = shape.words_per_wire();
    let size = 1usize << shape.k();
    // Public inputs: wires 1..2^p are free, A = {i}, B = {0}.
    let mut rows_a: Vec<Vec<u32>> = (0..size).map(|i| a0.row(i).to_vec()).collect();
    let mut rows_b: Vec<Vec<u32>> = (0..size).map(|i| b0.row(i).to_vec()).collect();
    for i in 1..1usize << p {
        rows_a[i] = vec![i as u32];
        rows_b[i] = vec![0];
    }
    *a0 = SparseMatrix::from_rows(&rows_a);
    *b0 = SparseMatrix::from_rows(&rows_b);
    let mut z = vec![0u64; shape.num_words()];
    let mut a = vec![0u64; shape.num_words()];
    let mut b = vec![0u64; shape.num_words()];
    for w in 0..wpw {
        z[w] = u64::MAX;
        a[w] = u64::MAX;
        b[w] = u64::MAX;
    }
    for i in 1..size {
        for w in 0..wpw {
            let idx = i * wpw + w;
            if i < 1 << p {
                z[idx] = r.gen();
            }
            let (x, y) = if i < 1 << p {
                (z[idx], u64::MAX)
            } else {
                (xor_row(&rows_a[i], &z, wpw, w), xor_row(&rows_b[i], &z, wpw, w))
            };
            a[idx] = x;
            b[idx] = y;
            z[idx] = x & y;
        }
    }
    let c = z.clone();
    Batch { z, a, b, c }
}

struct Claims {
    zero: zerocheck::Output,
    /// One claim per lincheck group: `[A0, B0]` at `r'`, `[I]` at `tau'`.
    lin: Vec<EvalClaim>,
    public: EvalClaim,
}

/// The lincheck's groups for the zerocheck's output: `[A0, B0]` on its
/// claims at `(r0, r')`, `[C0] = [I]` on its claim on `c` at `(r0, tau')`.
fn with_groups<R>(
    a0: &SparseMatrix,
    b0: &SparseMatrix,
    c0: &SparseMatrix,
    zero: &zerocheck::Output,
    f: impl FnOnce(&[Group<'_>]) -> R,
) -> R {
    let (ab, c) = (LincheckClaim::ab_from(zero), LincheckClaim::c_from(zero));
    let groups = [
        Group {
            matrices: &[a0, b0],
            claim: &ab,
        },
        Group {
            matrices: &[c0],
            claim: &c,
        },
    ];
    f(&groups)
}

fn transcript() -> Transcript {
    let mut t = Transcript::new(b"pipeline-test");
    t.absorb_bytes(b"statement", b"random circuit");
    t
}

/// The public table (for each of the `2^p` public wires, its `N / 64`
/// instance words) as the wiring check's row fill: instance `y`'s bits.
fn table_fill(shape: Shape, public_words: &[u64]) -> impl Fn(usize, &mut [u64]) + Sync + '_ {
    let per_wire = shape.words_per_wire();
    move |y, row| {
        for (j, word) in public_words
            .chunks_exact(per_wire)
            .enumerate()
            .take(64 * row.len())
        {
            row[j / 64] |= ((word[y / 64] >> (y % 64)) & 1) << (j % 64);
        }
    }
}

/// Every instance's public block equals the public table.
fn public_relation<'a>(
    shape: Shape,
    p: usize,
    fill: &'a (dyn Fn(usize, &mut [u64]) + Send + Sync),
) -> [wiring::Relation<'a>; 1] {
    [wiring::Relation {
        instances: wiring::Instances::Range {
            start: 0,
            end: 1 << shape.n(),
        },
        wires: wiring::Wires { base: 0, len: 1 << p },
        from: None,
        values: wiring::Values::PerInstance(Box::new(fill)),
    }]
}

fn prove_all(
    shape: Shape,
    p: usize,
    a0: &SparseMatrix,
    b0: &SparseMatrix,
    batch: &Batch,
    public_words: &[u64],
) -> (Vec<u8>, Claims) {
    let mut t = transcript();
    let (zp, zero) = zerocheck::prove(shape, &batch.a, &batch.b, &batch.c, 0, &mut t);
    let c0 = identity(shape.k());
    let (lp, lin) = with_groups(a0, b0, &c0, &zero, |groups| {
        lincheck::prove(shape, groups, &batch.z, &mut t, &mut Plain)
    });
    let fill = table_fill(shape, public_words);
    let (wp, public) = wiring::prove(
        shape,
        p,
        &public_relation(shape, p, &fill),
        &batch.z,
        0,
        &mut t,
        &mut Plain,
    );
    let mut bytes = zp.to_bytes();
    lp.write(&mut bytes);
    bytes.extend(wp.to_bytes());
    (bytes, Claims { zero, lin, public })
}

fn verify_all(
    shape: Shape,
    p: usize,
    a0: &SparseMatrix,
    b0: &SparseMatrix,
    public_words: &[u64],
    bytes: &[u8],
) -> Result<Claims, PiopError> {
    let mut reader = starling_crypto::codec::Reader::new(bytes);
    let zp = zerocheck::Proof::read(shape, false, &mut reader)?;
    let lp = lincheck::Proof::read(shape, 2, &mut reader)?;
    let wp = wiring::Proof::from_bytes(
        shape,
        p,
        0,
        reader.take(wiring::Proof::num_bytes(shape, p, 0), "wiring")?,
    )?;
    reader.finish()?;
    let mut t = transcript();
    let zero = zerocheck::verify(shape, &zp, 0, &mut t)?;
    let c0 = identity(shape.k());
    let lin = with_groups(a0, b0, &c0, &zero, |groups| {
        lincheck::verify(shape, groups, &lp, &mut t)
    })?;
    let fill = table_fill(shape, public_words);
    let public = wiring::verify(shape, p, &public_relation(shape, p, &fill), &wp, 0, &mut t)?;
    Ok(Claims { zero, lin, public })
}

#[test]
fn valid_batches_leave_true_claims() {
    for (seed, &(n, k, p)) in [(7usize, 3usize, 1usize), (8, 5, 3), (9, 4, 2)]
        .iter()
        .enumerate()
    {
        let shape = Shape::new(n, k).unwrap();
        let mut r = ChaCha8Rng::seed_from_u64(seed as u64);
        let (mut a0, mut b0) = random_circuit(k, &mut r);
        let batch = evaluate(shape, p, &mut a0, &mut b0, &mut r);
        assert!(batch
            .a
            .iter()
            .zip(&batch.b)
            .zip(&batch.z)
            .all(|((x, y), w)| x & y == *w));
        let public_words = batch.z[..shape.words_per_wire() << p].to_vec();
        let (bytes, proved) = prove_all(shape, p, &a0, &b0, &batch, &public_words);
        let claims = verify_all(shape, p, &a0, &b0, &public_words, &bytes).expect("valid batch");
        assert_eq!(claims.zero, proved.zero);
        assert_eq!(claims.lin, proved.lin);
        // c = z here, so the zerocheck's claim on c is one on z too; what
        // goes to the PCS is the lincheck's claims and the public claim.
        assert!(starling_piop::claims::holds(
            &claims.zero.c_claim(),
            shape,
            &batch.c
        ));
        assert_eq!(claims.lin.len(), 2);
        for c in claims.lin.iter().chain([&claims.public]) {
            assert!(starling_piop::claims::holds(c, shape, &batch.z));
            let packed = c.to_packed();
            assert_eq!((packed.lambda.len(), packed.point.len()), (128, shape.l() - 7));
        }
        assert_eq!(
            bytes.len(),
            zerocheck::Proof::num_bytes(shape)
                + lincheck::Proof::num_bytes(shape, 2)
                + wiring::Proof::num_bytes(shape, p, 0)
        );
    }
}

#[test]
fn all_zero_witness_is_caught_by_the_wiring_check() {
    // z = a = b = 0 satisfies every row, so zerocheck and lincheck accept;
    // the constant wire is pinned by the public values.
    let (n, k, p) = (7, 3, 1);
    let shape = Shape::new(n, k).unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(40);
    let (mut a0, mut b0) = random_circuit(k, &mut r);
    let honest = evaluate(shape, p, &mut a0, &mut b0, &mut r);
    let public_words = honest.z[..shape.words_per_wire() << p].to_vec();
    let zero = Batch {
        z: vec![0; shape.num_words()],
        a: vec![0; shape.num_words()],
        b: vec![0; shape.num_words()],
        c: vec![0; shape.num_words()],
    };
    let (bytes, proved) = prove_all(shape, p, &a0, &b0, &zero, &public_words);
    assert!(starling_piop::claims::holds(
        &proved.zero.c_claim(),
        shape,
        &zero.c
    ));
    assert!(proved
        .lin
        .iter()
        .all(|c| starling_piop::claims::holds(c, shape, &zero.z)));
    // The zerocheck and lincheck verify; the wiring check, which binds the
    // public table (constant wire included), does not.
    assert_eq!(
        verify_all(shape, p, &a0, &b0, &public_words, &bytes).err(),
        Some(PiopError::WiringFinalCheck)
    );
}

/// A random circuit's honest batch (`n = 8`, `k = 4`, `p = 1`) whose last
/// wire has one bit of `z` flipped. No row reads the last wire, so `a = Az`
/// and `b = Bz` stay right and the only broken relation is that row's.
fn batch_with_a_wrong_last_wire(seed: u64) -> (Shape, usize, SparseMatrix, SparseMatrix, Batch, Vec<u64>) {
    let (n, k, p) = (8, 4, 1);
    let shape = Shape::new(n, k).unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let (mut a0, mut b0) = random_circuit(k, &mut r);
    let mut batch = evaluate(shape, p, &mut a0, &mut b0, &mut r);
    let public_words = batch.z[..shape.words_per_wire() << p].to_vec();
    batch.z[shape.num_words() - 1] ^= 1 << 5;
    (shape, p, a0, b0, batch, public_words)
}

#[test]
fn a_wrong_internal_wire_is_rejected() {
    // c = C z = z follows the flipped bit, and a & b no longer equals it.
    let (shape, p, a0, b0, mut batch, public_words) = batch_with_a_wrong_last_wire(41);
    batch.c[shape.num_words() - 1] ^= 1 << 5;
    let (bytes, _) = prove_all(shape, p, &a0, &b0, &batch, &public_words);
    assert_eq!(
        verify_all(shape, p, &a0, &b0, &public_words, &bytes).err(),
        Some(PiopError::ZerocheckFinalCheck)
    );
}

#[test]
fn a_c_other_than_c_z_is_caught_by_the_lincheck() {
    // The same wrong wire, but the prover hands the zerocheck the right
    // c = a & b, which is then not C z = z: the zerocheck accepts, and the
    // lincheck's identity group at tau' rejects.
    let (shape, p, a0, b0, batch, public_words) = batch_with_a_wrong_last_wire(42);
    let (bytes, proved) = prove_all(shape, p, &a0, &b0, &batch, &public_words);
    assert!(starling_piop::claims::holds(
        &proved.zero.c_claim(),
        shape,
        &batch.c
    ));
    assert!(!starling_piop::claims::holds(
        &proved.zero.c_claim(),
        shape,
        &batch.z
    ));
    assert_eq!(
        verify_all(shape, p, &a0, &b0, &public_words, &bytes).err(),
        Some(PiopError::LincheckFinalCheck)
    );
}
