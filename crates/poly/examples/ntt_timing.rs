//! Timing of the batched additive NTT (release mode): one coset of a
//! `2^log_len`-position transform with `batch` elements per position, and the
//! same number of products done as many small in-cache transforms, and the
//! transform pruned to `queries` positions (a PCS opening's re-encode).
//! Usage: `cargo run --release -p starling-poly --example ntt_timing -- [log_len] [batch] [queries]`

use std::time::Instant;

use starling_field::Gf128;
use starling_poly::additive_ntt::AdditiveNtt;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let log_len: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let batch: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(64);
    let queries: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(106);
    let n = batch << log_len;
    let src: Vec<Gf128> = (0..n as u128)
        .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)))
        .collect();
    let mut out = vec![Gf128::ZERO; n];
    let ntt = AdditiveNtt::new(log_len);
    for rep in 0..3 {
        let t = Instant::now();
        ntt.forward_from(&src, &mut out, batch, 3 << log_len);
        let el = t.elapsed();
        let products = (n / 2 * log_len) as f64;
        println!(
            "rep {rep}: forward 2^{log_len} x {batch}: {el:?} ({:.2} ns/product)",
            el.as_secs_f64() * 1e9 / products
        );
    }
    // In-cache rate: 2^10-position transforms over the same total work.
    let small = 10.min(log_len);
    let ntt_small = AdditiveNtt::new(small);
    let chunk = batch << small;
    let t = Instant::now();
    let reps = (n / chunk) * log_len / small.max(1);
    let mut buf = out[..chunk].to_vec();
    for _ in 0..reps {
        ntt_small.forward(&mut buf, batch, 0);
    }
    let el = t.elapsed();
    let products = (reps * chunk / 2 * small) as f64;
    println!(
        "in cache 2^{small} x {batch}, {reps} times: {el:?} ({:.2} ns/product)",
        el.as_secs_f64() * 1e9 / products
    );
    // Pruned to `queries` spread positions (distinct, sorted).
    let mut positions: Vec<usize> = (0..queries as u64)
        .map(|k| (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - log_len)) as usize)
        .collect();
    positions.sort_unstable();
    positions.dedup();
    for rep in 0..3 {
        let t = Instant::now();
        ntt.forward_gathered_at(&mut out, batch, 3 << log_len, &positions, &|start, out| {
            out.copy_from_slice(&src[start..start + out.len()])
        });
        println!(
            "rep {rep}: forward 2^{log_len} x {batch} at {} positions: {:?}",
            positions.len(),
            t.elapsed()
        );
    }
}
