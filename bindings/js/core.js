// The JavaScript half of `verify`, shared by the Node and browser entry
// points: checks the caller's arguments, calls the WebAssembly `verify`,
// and turns its outcome into a plain object or a named Error.

/** The security a verifier requires unless told otherwise, in bits. */
export const DEFAULT_MIN_SECURITY_BITS = 100;

/** The kind parameters `expected` may hold, by the command line's flag names. */
const PARAMS = ["hash", "scheme", "ctx", "interface", "circuit"];
/** The bounds `expected` may hold: `--max-len`, `--max-leaf-len`. */
const BOUNDS = ["maxLen", "maxLeafLen"];
const KEYS = new Set(["kind", "inputs", "minSecurityBits", ...PARAMS, ...BOUNDS]);

/** An Error named as the caller can tell apart (`error.name`). */
function named(name, message) {
  const error = new Error(message);
  error.name = name;
  return error;
}

const unreadable = (message) => named("StarlingUnreadable", message);

/** A string, or undefined where not given (`undefined` or `null`). */
function text(expected, key) {
  const value = expected[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw unreadable(`expected.${key} must be a string, not ${typeof value}`);
  }
  return value;
}

/** A bound as the command line writes it (decimal), or undefined where not given. */
function bound(expected, key) {
  const value = expected[key];
  if (value === undefined || value === null) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw unreadable(`expected.${key} must be a whole number of bytes, not ${JSON.stringify(value)}`);
  }
  return String(value);
}

/**
 * The `verify` function of a loaded module (`wasm`: the exports of the
 * wasm-bindgen output, initialised).
 */
export function makeVerify(wasm) {
  /**
   * Verifies `proof`, the bytes of a proof file, against the statement
   * `expected` names (or against the statement it carries when there is
   * none). See README.md.
   */
  return function verify(proof, expected) {
    if (!(proof instanceof Uint8Array)) {
      throw unreadable("the proof must be a Uint8Array (the bytes of a proof file)");
    }
    expected = expected ?? {};
    if (typeof expected !== "object") {
      throw unreadable("expected must be an object: {kind, inputs, ...params}");
    }
    for (const key of Object.keys(expected)) {
      if (!KEYS.has(key)) {
        throw unreadable(`expected.${key} is not a parameter (${[...KEYS].join(", ")})`);
      }
    }
    const kind = text(expected, "kind");
    const inputs = text(expected, "inputs");
    const params = Object.fromEntries([
      ...PARAMS.map((p) => [p, text(expected, p)]),
      ...BOUNDS.map((b) => [b, bound(expected, b)]),
    ]);
    if ((kind === undefined) !== (inputs === undefined)) {
      throw unreadable("expected.kind and expected.inputs go together: give both or neither");
    }
    if (kind === undefined) {
      const given = [...PARAMS, ...BOUNDS].filter((p) => params[p] !== undefined);
      if (given.length > 0) {
        throw unreadable(`expected.${given[0]} is a parameter of the expected kind: give kind and inputs too`);
      }
    }
    const bits = expected.minSecurityBits ?? DEFAULT_MIN_SECURITY_BITS;
    if (typeof bits !== "number" || !Number.isFinite(bits)) {
      throw unreadable("expected.minSecurityBits must be a finite number");
    }
    let outcome;
    try {
      outcome = wasm.verify(
        proof, kind, inputs, params.circuit, params.hash, params.scheme, params.ctx, params.interface,
        params.maxLen, params.maxLeafLen, bits,
      );
    } catch (e) {
      // A panic (a bug) aborts the call; its message was kept.
      const panic = wasm.takePanic?.();
      throw panic ? new Error(panic, { cause: e }) : e;
    }
    try {
      if (outcome.error !== undefined) {
        throw named(outcome.error, outcome.message);
      }
      return {
        kind: outcome.kind,
        count: outcome.count,
        circuit: outcome.circuit,
        publicDigest: outcome.publicDigest,
        zk: outcome.zk,
        securityBits: outcome.securityBits,
        outputs: outcome.outputs,
        shards: outcome.shards,
      };
    } finally {
      outcome.free();
    }
  };
}
