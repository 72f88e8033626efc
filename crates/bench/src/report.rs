//! A benchmark's figures, and the two ways `starling bench` prints them:
//! one JSON object ([`Report::to_json`], `--json`) and text (`Display`).

use std::fmt;
use std::time::Duration;

use starling::Profile;

use crate::native::NativeVerification;

/// What one benchmark measured.
pub struct Report {
    /// The hash the statement's calls compute.
    pub hash: &'static str,
    /// The kind with its parameters.
    pub kind: String,
    /// What one input record is called (hash, message, step, leaf, signature).
    pub noun: &'static str,
    /// N, input records.
    pub count: u64,
    /// Compression calls (or permutations) proved.
    pub compressions: usize,
    /// Circuit instances.
    pub instances: usize,
    /// Worker threads of the pool it ran in.
    pub threads: usize,
    pub profile: Profile,
    /// Whether the proofs are zero-knowledge.
    pub zk: bool,
    /// Proofs timed after the first.
    pub runs: usize,
    /// The median of the later proofs, seconds (the first's when `runs` is 0).
    pub prove_s: f64,
    /// The first proof, seconds.
    pub cold_prove_s: f64,
    /// The median proof's phases, wall time.
    pub phases: Vec<(&'static str, Duration)>,
    /// The median proof's phases, CPU time of all threads; empty where unknown.
    pub phases_cpu: Vec<Duration>,
    /// Native portable cost per input record, ns.
    pub native_ns: f64,
    /// Native cost with the SHA extensions, where there are some.
    pub native_hw_ns: Option<f64>,
    /// The fastest native cost this machine has.
    pub native_best_ns: f64,
    /// Signatures: the native verifier's calls and time.
    pub native_verification: Option<NativeVerification>,
    pub proof_bytes: usize,
    /// The file with the public values.
    pub file_bytes: usize,
    /// Median verification, ms.
    pub verify_ms: f64,
    /// Peak resident memory of the process (0 where unknown).
    pub peak_rss_bytes: u64,
    /// Resident memory on huge pages after the proofs.
    pub huge_page_bytes: Option<u64>,
    pub security_bits: f64,
}

impl Report {
    /// Input records proved per second.
    pub fn hashes_per_s(&self) -> f64 {
        self.count as f64 / self.prove_s
    }

    /// Compression calls proved per second.
    pub fn compressions_per_s(&self) -> f64 {
        self.compressions as f64 / self.prove_s
    }

    /// Proving time over portable native hashing of the same records.
    pub fn overhead(&self) -> f64 {
        self.prove_s * 1e9 / self.count as f64 / self.native_ns
    }

    /// Proving time over the fastest native hashing.
    pub fn overhead_best(&self) -> f64 {
        self.prove_s * 1e9 / self.count as f64 / self.native_best_ns
    }

    /// The object `starling bench --json` prints.
    pub fn to_json(&self) -> serde_json::Value {
        let mut phases = serde_json::Map::new();
        for (name, d) in &self.phases {
            phases.insert(name.to_string(), serde_json::json!(d.as_secs_f64()));
        }
        let phases_cpu: serde_json::Map<String, serde_json::Value> = self
            .phases
            .iter()
            .zip(&self.phases_cpu)
            .map(|((name, _), cpu)| (name.to_string(), serde_json::json!(cpu.as_secs_f64())))
            .collect();
        let mut obj = serde_json::json!({
            "hash": self.hash,
            "kind": self.kind,
            "count": self.count,
            "compressions": self.compressions,
            "instances": self.instances,
            "threads": self.threads,
            "cpu_tier": starling::cpu::tier().name(),
            "cpu_extensions": starling::cpu::extensions().iter().map(|e| e.name()).collect::<Vec<_>>(),
            "prove_s": self.prove_s,
            "cold_prove_s": self.cold_prove_s,
            "runs": self.runs,
            "hashes_per_s": self.hashes_per_s(),
            "compressions_per_s": self.compressions_per_s(),
            "native_ns": self.native_ns,
            "native_hw_ns": self.native_hw_ns,
            "native_best_ns": self.native_best_ns,
            "overhead": self.overhead(),
            "overhead_best": self.overhead_best(),
            "proof_bytes": self.proof_bytes,
            "file_bytes": self.file_bytes,
            "verify_ms": self.verify_ms,
            "peak_rss_bytes": self.peak_rss_bytes,
            "huge_page_bytes": self.huge_page_bytes,
            "security_bits": self.security_bits,
            "profile": self.profile.name(),
            "zk": self.zk,
            "phases_s": phases,
            "phases_cpu_s": phases_cpu,
        });
        if let Some(v) = &self.native_verification {
            obj["native_compressions"] = serde_json::json!(v.compressions);
            obj["native_verify_ns"] = serde_json::json!(v.ns);
        }
        obj
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = self.noun;
        let (count, compressions, instances) = (self.count, self.compressions, self.instances);
        let (prove_s, cold_prove_s) = (self.prove_s, self.cold_prove_s);
        let (hashes_per_s, compressions_per_s) = (self.hashes_per_s(), self.compressions_per_s());
        let (native_ns, native_best_ns) = (self.native_ns, self.native_best_ns);
        let (overhead, overhead_best) = (self.overhead(), self.overhead_best());
        let (proof_bytes, file_bytes, verify_ms) = (self.proof_bytes, self.file_bytes, self.verify_ms);
        let security_bits = self.security_bits;
        writeln!(
            f,
            "statement       {} ({} profile{})",
            self.kind,
            self.profile.name(),
            if self.zk { ", zero-knowledge" } else { "" }
        )?;
        writeln!(f, "count           {count} {noun}s, {compressions} compression calls in {instances} circuit instances")?;
        writeln!(f, "threads         {}", self.threads)?;
        let extensions = starling::cpu::extensions();
        if extensions.is_empty() {
            writeln!(f, "cpu tier        {}", starling::cpu::tier())?;
        } else {
            let names: Vec<&str> = extensions.iter().map(|e| e.name()).collect();
            writeln!(
                f,
                "cpu tier        {} (with {})",
                starling::cpu::tier(),
                names.join(", ")
            )?;
        }
        writeln!(
                f,
            "prove           {prove_s:.3} s  ({hashes_per_s:.0} {noun}s/s, {compressions_per_s:.0} instances/s; median of {} proofs after the first)",
            self.runs
        )?;
        writeln!(
            f,
            "first proof     {cold_prove_s:.3} s  (fresh process: every buffer faulted in)"
        )?;
        for (i, (name, d)) in self.phases.iter().enumerate() {
            match self.phases_cpu.get(i) {
                // CPU time over wall time: how many threads ran on average
                // (idle workers spin a little before they sleep).
                Some(cpu) => writeln!(
                    f,
                    "  {name:<14}{:.3} s  (cpu {:.3} s, {:.1}x wall)",
                    d.as_secs_f64(),
                    cpu.as_secs_f64(),
                    cpu.as_secs_f64() / d.as_secs_f64().max(1e-9)
                )?,
                None => writeln!(f, "  {name:<14}{:.3} s", d.as_secs_f64())?,
            }
        }
        match self.native_hw_ns {
            Some(hw) => writeln!(
                f,
                "native          {native_ns:.1} ns/{noun} (portable), {hw:.1} ns (SHA extensions), {native_best_ns:.1} ns (best)"
            )?,
            None => writeln!(f, "native          {native_ns:.1} ns/{noun} (portable), {native_best_ns:.1} ns (best)")?,
        }
        if let Some(v) = &self.native_verification {
            writeln!(
                f,
                "native verify   {:.1} us/{noun} ({} compression calls in all, {:.2} per proved call)",
                v.ns / 1e3,
                v.compressions,
                v.compressions as f64 / compressions as f64
            )?;
        }
        writeln!(
            f,
            "overhead        {overhead:.0}x portable native hashing, {overhead_best:.0}x the best"
        )?;
        writeln!(
            f,
            "proof           {proof_bytes} bytes (file with public values: {file_bytes} bytes)"
        )?;
        writeln!(f, "verify          {verify_ms:.2} ms")?;
        writeln!(
            f,
            "peak RSS        {:.1} MiB",
            self.peak_rss_bytes as f64 / (1024.0 * 1024.0)
        )?;
        if let Some(h) = self.huge_page_bytes {
            writeln!(
                f,
                "huge pages      {:.1} MiB resident after the proofs",
                h as f64 / (1024.0 * 1024.0)
            )?;
        }
        writeln!(f, "security        {security_bits:.1} bits")
    }
}
