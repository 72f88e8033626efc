//! Reading SHA-256 compression inputs from text, and generating random ones.
//!
//! Format: one compression per line, `CV BLOCK` as 64 and 128 hex digits, the
//! bytes in the order SHA-256 writes them (big-endian words). Blank lines and
//! lines starting with `#` are ignored. Every error names the line.

use rand::{RngCore, SeedableRng};

use crate::statement::Sha256Input;
use crate::Error;

/// Parses the text of an inputs file.
pub fn parse_sha256_inputs(text: &str) -> Result<Vec<Sha256Input>, Error> {
    let mut out = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 2 {
            return Err(Error::Input(format!(
                "line {line_no}: expected 2 fields (CV BLOCK), found {}",
                fields.len()
            )));
        }
        let cv_bytes = parse_hex_field(fields[0], 32, "chaining value", line_no)?;
        let block_bytes = parse_hex_field(fields[1], 64, "block", line_no)?;
        let mut cv = [0u32; 8];
        for (i, w) in cv.iter_mut().enumerate() {
            *w = u32::from_be_bytes([
                cv_bytes[4 * i],
                cv_bytes[4 * i + 1],
                cv_bytes[4 * i + 2],
                cv_bytes[4 * i + 3],
            ]);
        }
        let mut block = [0u8; 64];
        block.copy_from_slice(&block_bytes);
        out.push(Sha256Input { cv, block });
    }
    if out.is_empty() {
        return Err(Error::Input("no inputs: N must be at least 1".into()));
    }
    Ok(out)
}

fn parse_hex_field(s: &str, bytes: usize, what: &str, line_no: usize) -> Result<Vec<u8>, Error> {
    if s.len() != 2 * bytes {
        return Err(Error::Input(format!(
            "line {line_no}: {what} has {} hex digits, expected {}",
            s.len(),
            2 * bytes
        )));
    }
    hex::decode(s).map_err(|e| Error::Input(format!("line {line_no}: {what}: {e}")))
}

/// `count` random inputs from a seed (ChaCha8), for demos and benchmarks.
pub fn random_sha256_inputs(count: usize, seed: u64) -> Vec<Sha256Input> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut cv = [0u32; 8];
            for w in cv.iter_mut() {
                *w = rng.next_u32();
            }
            let mut block = [0u8; 64];
            rng.fill_bytes(&mut block);
            Sha256Input { cv, block }
        })
        .collect()
}

/// Formats inputs in the file format (the inverse of `parse_sha256_inputs`).
pub fn format_sha256_inputs(inputs: &[Sha256Input]) -> String {
    let mut s = String::new();
    for inp in inputs {
        for w in inp.cv {
            s.push_str(&hex::encode(w.to_be_bytes()));
        }
        s.push(' ');
        s.push_str(&hex::encode(inp.block));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_comments() {
        let inputs = random_sha256_inputs(3, 9);
        let text = format!("# header\n\n{}\n", format_sha256_inputs(&inputs));
        assert_eq!(parse_sha256_inputs(&text).unwrap(), inputs);
    }

    #[test]
    fn errors_name_the_line() {
        let good = format_sha256_inputs(&random_sha256_inputs(1, 1));
        let odd = format!("{good}abc {}\n", "00".repeat(64));
        let e = parse_sha256_inputs(&odd).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("hex digits"), "{e}");
        let bad_digit = format!("{}g {}\n", "0".repeat(63), "00".repeat(64));
        let e = parse_sha256_inputs(&bad_digit).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        let e = parse_sha256_inputs("# nothing\n\n").unwrap_err().to_string();
        assert!(e.contains("N must be at least 1"), "{e}");
        let e = parse_sha256_inputs(&format!("{} x y\n", "00".repeat(32)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 2 fields"), "{e}");
    }
}
