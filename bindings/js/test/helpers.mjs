// What the tests share: the `starling` command line (the reference the
// package must agree with), scratch folders, and a proof of every kind
// made at test time.

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = join(packageDir, "..", "..");
export const fixtures = join(packageDir, "test", "fixtures");

let bin;

/**
 * The `starling` binary: $STARLING_BIN, or the repository's release build,
 * which `cargo build --release -p starling-cli` brings up to date first.
 */
export function starlingBin() {
  if (bin) return bin;
  if (process.env.STARLING_BIN) return (bin = process.env.STARLING_BIN);
  const messages = execFileSync(
    "cargo",
    ["build", "--release", "-p", "starling-cli", "--message-format=json-render-diagnostics"],
    { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 28 },
  );
  for (const line of messages.split("\n")) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line);
    if (m.reason === "compiler-artifact" && m.target?.name === "starling" && m.executable) bin = m.executable;
  }
  if (!bin) throw new Error("cargo built no `starling` binary");
  return bin;
}

/** Runs `starling ARGS`: exit code, stdout, stderr. */
export function starling(args) {
  const r = spawnSync(starlingBin(), args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A new scratch folder. */
export function scratch(name) {
  return mkdtempSync(join(tmpdir(), `starling-verify-${name}-`));
}

/** `n` pseudo-random bytes from `seed`, the same on every run. */
export function bytes(seed, n) {
  const out = [];
  for (let i = 0; out.length * 32 < n; i++) {
    out.push(createHash("sha256").update(`${seed}/${i}`).digest());
  }
  return Buffer.concat(out).subarray(0, n);
}

export const hex = (seed, n) => bytes(seed, n).toString("hex");

/** SHA-256 of the concatenated buffers. */
const sha256 = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest();

/** The root of a plain SHA-256 tree over a power of two of leaves. */
function plainRoot(leaves) {
  let level = leaves;
  while (level.length > 1) {
    level = Array.from({ length: level.length / 2 }, (_, i) => sha256(level[2 * i], level[2 * i + 1]));
  }
  return level[0];
}

/** The command line's flags for kind parameters given as `verify` takes them. */
export function paramFlags(params, dir) {
  const flags = [];
  for (const [key, value] of Object.entries(params)) {
    if (key === "circuit") {
      const path = join(dir, "circuit.txt");
      writeFileSync(path, value);
      flags.push("--bristol", path);
    } else {
      flags.push(`--${key}`, value);
    }
  }
  return flags;
}

/**
 * Every kind, small: its name, parameters (as `verify` takes them), the
 * prove arguments, and the expected-inputs text.
 */
export function cases() {
  const lines = (n, line) => Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";
  const list = [
    { name: "sha256", kind: "sha256", inputs: lines(3, (i) => `${hex(`sha256 cv ${i}`, 32)} ${hex(`sha256 block ${i}`, 64)}`) },
    { name: "sha512", kind: "sha512", inputs: lines(2, (i) => `${hex(`sha512 cv ${i}`, 64)} ${hex(`sha512 block ${i}`, 128)}`) },
    {
      name: "blake3",
      kind: "blake3",
      inputs: lines(2, (i) => `${hex(`blake3 cv ${i}`, 32)} ${hex(`blake3 block ${i}`, 64)} ${i} 64 ${i === 0 ? 1 : 11}`),
    },
    { name: "keccak-f1600", kind: "keccak-f1600", inputs: lines(2, (i) => hex(`keccak ${i}`, 200)) },
    circuitCase(lines),
  ];
  for (const hash of ["sha256", "sha512", "sha3-256", "keccak-256", "blake3"]) {
    list.push({
      name: `digest ${hash}`,
      kind: "digest",
      params: { hash },
      inputs: `-\n616263\n${hex(`digest ${hash}`, 150)}\n`,
    });
  }
  for (const hash of ["sha256", "blake3"]) {
    list.push({ name: `chain ${hash}`, kind: "chain", params: { hash }, inputs: `${hex(`chain ${hash}`, 32)} 5\n` });
  }
  for (const [hash, scheme, leaves] of [
    ["sha256", "plain", lines(4, (i) => hex(`leaf ${i}`, 32))],
    ["sha512", "plain", lines(2, (i) => hex(`leaf512 ${i}`, 64))],
    ["blake3", "plain", lines(2, (i) => hex(`leaf blake3 ${i}`, 32))],
    ["sha256", "rfc6962", `-\n00\n${hex("rfc leaf", 70)}\n`],
    ["sha256", "bitcoin", lines(3, (i) => hex(`txid ${i}`, 32))],
  ]) {
    list.push({ name: `merkle-root ${hash} ${scheme}`, kind: "merkle-root", params: { hash, scheme }, inputs: leaves });
  }
  const signed = readFileSync(join(fixtures, "lms-sha256-m32-h5-w4.txt"), "utf8");
  list.push({
    name: "signatures lms",
    kind: "signatures",
    params: { scheme: "lms-sha256-m32-h5-w4" },
    prover: signed,
    inputs: signed
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .map((l) => l.split(" ").slice(0, 2).join(" "))
      .join("\n") + "\n",
  });
  list.push(...secretCases(lines));
  return list.map((c) => ({ params: {}, ...c }));
}

/**
 * The kinds whose private records are secrets, always zero-knowledge: the
 * files their prover reads (`files`, by flag) and the expected text, from
 * the byte formats of the repository's `docs/ring.md` and
 * `docs/membership-design.md`, computed here with node:crypto.
 */
function secretCases(lines) {
  const messages = ["616263", "-", hex("preimage secret", 40)];
  const digest = (m) => sha256(Buffer.from(m === "-" ? "" : m, "hex")).toString("hex");
  const leaves = Array.from({ length: 8 }, (_, i) => bytes(`member leaf ${i}`, 32));
  const root = plainRoot(leaves).toString("hex");
  const sks = Array.from({ length: 3 }, (_, i) => bytes(`ring sk ${i}`, 32));
  const pks = sks.map((sk) => sha256(Buffer.from("starling/ring/pk"), sk));
  const padded = [...pks, Buffer.alloc(32)];
  const message = "a vote\n";
  const context = "c0ffee";
  const keyImage = sha256(Buffer.from("starling/ring/tag"), sks[1], Buffer.from(context, "hex"));
  return [
    {
      name: "preimage sha256",
      kind: "preimage",
      params: { hash: "sha256" },
      files: { "--secrets": lines(3, (i) => messages[i]) },
      inputs: lines(3, (i) => digest(messages[i])),
    },
    {
      name: "membership sha256 plain",
      kind: "membership",
      params: { hash: "sha256", scheme: "plain" },
      files: { "--tree": lines(8, (i) => leaves[i].toString("hex")), "--members": `${leaves[5].toString("hex")} 5\n` },
      flags: ["--root", root],
      inputs: `${root} 1 8\n`,
    },
    {
      name: "ring",
      kind: "ring",
      command: ["ring", "sign"],
      files: { "--ring": lines(3, (i) => pks[i].toString("hex")), "--secret": `${sks[1].toString("hex")}\n`, "--message": message },
      flags: ["--context", context],
      inputs: `${plainRoot(padded).toString("hex")} 4 ${sha256(Buffer.from(message)).toString("hex")} ${keyImage.toString("hex")} ${context}\n`,
    },
  ];
}

/**
 * The `circuit` case: the Bristol adder64 of the shared vectors
 * ($STARLING_VECTORS, else `../shared/vectors` beside the repository, as
 * the command line's tests find them), else a three-gate circuit of two
 * 2-bit inputs.
 */
function circuitCase(lines) {
  const vectors = process.env.STARLING_VECTORS ?? join(repoRoot, "..", "shared", "vectors");
  const adder = join(vectors, "bristol", "adder64.txt");
  if (existsSync(adder)) {
    return {
      name: "circuit",
      kind: "circuit",
      params: { circuit: readFileSync(adder, "utf8") },
      inputs: lines(3, (i) => `${hex(`adder a ${i}`, 8)} ${hex(`adder b ${i}`, 8)}`),
    };
  }
  console.log(`no ${adder}: the circuit case uses a three-gate circuit (set STARLING_VECTORS for adder64)`);
  return {
    name: "circuit",
    kind: "circuit",
    params: { circuit: "3 7\n2 2 2\n1 3\n\n2 1 0 2 4 AND\n2 1 0 2 5 XOR\n2 1 1 3 6 XOR\n" },
    inputs: "1 3\n2 2\n0 1\n",
  };
}

/**
 * Proves `c` with the command line in `dir`: the paths of its proof and
 * expected-inputs file.
 */
export function prove(c, dir) {
  const slug = c.name.replaceAll(" ", "-");
  const proof = join(dir, `${slug}.proof`);
  const expect = join(dir, `${slug}.inputs`);
  writeFileSync(expect, c.inputs);
  const command = c.command ?? ["prove", c.kind];
  const args = [...command, ...paramFlags(c.params, dir), "--out", proof, "--quiet", "--threads", "1"];
  if (c.files) {
    for (const [flag, text] of Object.entries(c.files)) {
      const path = join(dir, `${slug}${flag}`);
      writeFileSync(path, text);
      args.push(flag, path);
    }
    args.push(...(c.flags ?? []));
  } else if (c.kind === "chain") {
    const [start, steps] = c.inputs.trim().split(" ");
    args.push("--start", start, "--steps", steps);
  } else if (c.kind === "signatures") {
    const batch = join(dir, `${slug}.batch`);
    writeFileSync(batch, c.prover);
    args.push("--batch", batch);
  } else {
    args.push({ digest: "--messages", "merkle-root": "--leaves" }[c.kind] ?? "--inputs", expect);
  }
  const r = starling(args);
  if (r.code !== 0) throw new Error(`starling ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return { proof, expect };
}

/**
 * `starling verify PROOF [--expect FILE --kind KIND PARAMS] [--min-security B]`
 * with `extra` flags: exit code, stdout, and the error line's message (no
 * `error: `).
 */
export function cliVerify(proof, expect, c, extra = [], dir = dirname(proof)) {
  const args = ["verify", proof, ...extra];
  if (expect) args.push("--expect", expect, "--kind", c.kind, ...paramFlags(c.params, dir));
  const r = starling(args);
  const error = r.stderr.split("\n").find((l) => l.startsWith("error: "));
  return { ...r, message: error?.slice("error: ".length) };
}

/** The error names the command line's exit codes stand for. */
export const ERROR_FOR_EXIT = { 1: "StarlingRejected", 2: "StarlingUnreadable", 3: "Error" };
