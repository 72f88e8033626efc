//! How many bytes per second this machine's cores move to and from memory
//! together, at several thread counts: the ceiling of a prover phase that
//! streams tables larger than the caches, to set beside
//! `scripts/thread-scaling`'s figures on the same machine. A 2^16-hash
//! proof moves gigabytes through the last-level cache (BENCHMARKS.md, "Threads"),
//! so where sixteen threads scale less than ten times, this tells whether
//! memory could be the reason.
//!
//! `cargo run --release -p starling --example memory_bandwidth -- [MIB]
//! [THREADS...]` (default 512 MiB per array, threads 1 2 4 8 16): per
//! thread count, the best of three runs of a read of two arrays, a write
//! of one, and `a = b ^ 3c` (two read, one written), in GB/s of the bytes
//! the program reads and writes. Writes also read each line first unless
//! the core elides that, so memory moves up to a third more for them.

use std::time::Instant;

use rayon::prelude::*;

/// Elements per rayon task: 1 MiB.
const TASK: usize = 1 << 17;

fn best_gbs(bytes: usize, mut pass: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            pass();
            bytes as f64 / start.elapsed().as_secs_f64() / 1e9
        })
        .fold(0.0, f64::max)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mib: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(512);
    let mut threads: Vec<usize> = args.filter_map(|a| a.parse().ok()).collect();
    if threads.is_empty() {
        threads = vec![1, 2, 4, 8, 16];
    }
    let len = (mib << 20) / 8;
    // Written once up front, so that no pass below pays for page faults.
    let mut a: Vec<u64> = (0..len as u64).into_par_iter().map(|i| i ^ 0x55).collect();
    let b: Vec<u64> = (0..len as u64)
        .into_par_iter()
        .map(|i| i.rotate_left(7))
        .collect();
    let c: Vec<u64> = (0..len as u64).into_par_iter().map(|i| !i).collect();
    let bytes = 8 * len;
    println!("arrays of {mib} MiB; GB/s of the bytes read and written, best of three");
    for t in threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .expect("a thread pool");
        let (read, write, triad) = pool.install(|| {
            let read = best_gbs(2 * bytes, || {
                let x = b
                    .par_chunks(TASK)
                    .zip(c.par_chunks(TASK))
                    .map(|(b, c)| b.iter().zip(c).fold(0u64, |s, (x, y)| s ^ x ^ y))
                    .reduce(|| 0, |x, y| x ^ y);
                std::hint::black_box(x);
            });
            let write = best_gbs(bytes, || {
                a.par_chunks_mut(TASK).for_each(|a| a.fill(7));
                std::hint::black_box(&a);
            });
            let triad = best_gbs(3 * bytes, || {
                a.par_chunks_mut(TASK)
                    .zip(b.par_chunks(TASK).zip(c.par_chunks(TASK)))
                    .for_each(|(a, (b, c))| {
                        for (x, (y, z)) in a.iter_mut().zip(b.iter().zip(c)) {
                            *x = y ^ z.wrapping_mul(3);
                        }
                    });
                std::hint::black_box(&a);
            });
            (read, write, triad)
        });
        println!("{t:3} threads  read {read:6.1}  write {write:6.1}  triad {triad:6.1}");
    }
}
