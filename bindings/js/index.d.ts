/** The statement a proof must prove, and the security it must have. */
export interface Expected {
  /** The statement kind, as the command line names it: `sha256`, `digest`, `merkle-root`, `preimage`, `membership`, `ring`, ... */
  kind?: string;
  /** The expected inputs, in the text `starling verify --expect FILE` reads. */
  inputs?: string;
  /** `digest`, `chain`, `merkle-root`, `preimage`, `membership`, `ring`: the hash (`sha256`, `sha512`, `sha3-256`, `keccak-256`, `blake3`; a ring's is `sha256`). */
  hash?: string;
  /** `merkle-root`: the tree (`plain`, `rfc6962`, `bitcoin`); `membership`: `plain` or `rfc6962`; `signatures`: the scheme. */
  scheme?: string;
  /** `preimage`: the longest secret message, in bytes (default 64), as `--max-len`. */
  maxLen?: number;
  /** `membership` of `rfc6962` trees: the longest member leaf, in bytes (default 64), as `--max-leaf-len`. */
  maxLeafLen?: number;
  /** `signatures` with SLH-DSA: the context string, in hex. */
  ctx?: string;
  /** `signatures` with SLH-DSA: `pure` or `internal`. */
  interface?: string;
  /** `circuit`: the circuit, as Bristol Fashion text. */
  circuit?: string;
  /** Refuse proofs with less provable security than this (default 100). */
  minSecurityBits?: number;
}

/** What a verified proof establishes. */
export interface Verified {
  /** The kind's name as the command line prints it (`digest --hash sha256`). */
  kind: string;
  /** N, in the kind's unit. */
  count: number;
  /** The digest of the kind's instance circuit, in hex. */
  circuit: string;
  /** The digest of every public value the proof binds, in hex. */
  publicDigest: string;
  /** Whether the proof is zero-knowledge: it shows nothing of the private values beyond the statement. */
  zk: boolean;
  /** Provable security of the proof, in bits. */
  securityBits: number;
  /** The outputs, one line each, as `starling verify --print-outputs` prints them. */
  outputs: string[];
  /** How many shard proofs the file holds: 1 for a proof, K for a bundle of K shards (`starling verify` prints `shards=K` for a bundle). */
  shards: number;
}

/**
 * Verifies `proof`, the bytes of a proof file, against `expected` (without
 * it, or without its kind and inputs, against nothing but itself).
 * Throws an Error named `StarlingRejected` (a rejected proof) or
 * `StarlingUnreadable` (an unreadable proof, inputs text or parameter).
 */
export function verify(proof: Uint8Array, expected?: Expected): Verified;

/** The security `verify` requires unless told otherwise, in bits. */
export const DEFAULT_MIN_SECURITY_BITS: number;
