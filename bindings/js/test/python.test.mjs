// A proof made from Python (the `starling` package) verifies here exactly
// as the command line verifies it, and a tampered one is rejected by both;
// so does a bundle Python proves in shards on Dask (`starling.dask`, the
// package's `dask` extra, which scripts/test-python installs).
// Needs a Python with the package installed: $STARLING_PYTHON
// (scripts/test-js passes the virtual environment scripts/test-python
// makes); without one the test is skipped, saying so.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";

import { verify } from "../node.js";
import { cliVerify, hex, scratch } from "./helpers.mjs";

const python = process.env.STARLING_PYTHON;

it("verifies a proof made by the Python package, as the command line does", { skip: python ? false : "no $STARLING_PYTHON (a Python with the starling package)" }, () => {
  const dir = scratch("python");
  const c = { kind: "sha256", params: {} };
  const inputs = Array.from({ length: 5 }, (_, i) => `${hex(`py-cv-${i}`, 32)} ${hex(`py-block-${i}`, 64)}`).join("\n") + "\n";
  const expect = join(dir, "sha256.inputs");
  const proof = join(dir, "sha256.proof");
  writeFileSync(expect, inputs);
  const hidden = join(dir, "sha256-zk.proof");
  const script = [
    "import sys, starling",
    "text = open(sys.argv[1]).read()",
    "open(sys.argv[2], 'wb').write(starling.prove('sha256', text))",
    "open(sys.argv[3], 'wb').write(starling.prove('sha256', text, zk=True))",
  ].join("\n");
  const made = spawnSync(python, ["-c", script, expect, proof, hidden], { encoding: "utf8" });
  assert.equal(made.status, 0, made.stderr);
  // The zero-knowledge one verifies here and there, and says so.
  const zk = verify(readFileSync(hidden), { kind: "sha256", inputs });
  assert.equal(zk.zk, true);
  assert.equal(JSON.parse(cliVerify(hidden, expect, c, ["--json"]).stdout).zk, true);

  const bytes = readFileSync(proof);
  const { v, json } = verifiedAsTheCliVerifies(proof, inputs, expect, c);
  assert.equal(v.zk, false);
  assert.deepEqual(zk.outputs, v.outputs);
  // A proof file is one proof, here and there.
  assert.equal(v.shards, 1);
  assert.equal(json.shards, 1);

  rejectedByBoth(bytes, join(dir, "tampered.proof"), inputs, expect, c);
});

it("verifies a bundle the Python package proved in shards, as the command line does", { skip: python ? false : "no $STARLING_PYTHON (a Python with the starling package)" }, () => {
  const dir = scratch("python-bundle");
  const c = { kind: "sha256", params: {} };
  const inputs = Array.from({ length: 6 }, (_, i) => `${hex(`py-bundle-cv-${i}`, 32)} ${hex(`py-bundle-block-${i}`, 64)}`).join("\n") + "\n";
  const expect = join(dir, "sha256.inputs");
  const bundle = join(dir, "sha256.bundle");
  const whole = join(dir, "sha256.proof");
  writeFileSync(expect, inputs);
  // Two shards of three blocks each, on a Dask cluster of this machine's
  // that `prove` starts and closes; and the one proof of the same blocks.
  const script = [
    "import sys, starling, starling.dask",
    "text = open(sys.argv[1]).read()",
    "open(sys.argv[2], 'wb').write(starling.dask.prove('sha256', text, shards=2))",
    "open(sys.argv[3], 'wb').write(starling.prove('sha256', text))",
  ].join("\n");
  const made = spawnSync(python, ["-c", script, expect, bundle, whole], { encoding: "utf8" });
  assert.equal(made.status, 0, made.stderr);

  const bytes = readFileSync(bundle);
  const { v, json } = verifiedAsTheCliVerifies(bundle, inputs, expect, c);
  assert.equal(v.shards, 2);
  assert.equal(json.shards, 2);
  // The bundle proves what the one proof of the same blocks proves.
  const one = verify(readFileSync(whole), { kind: "sha256", inputs });
  assert.equal(one.shards, 1);
  assert.deepEqual(
    { count: v.count, circuit: v.circuit, publicDigest: v.publicDigest, outputs: v.outputs },
    { count: one.count, circuit: one.circuit, publicDigest: one.publicDigest, outputs: one.outputs },
  );

  // A flipped byte in the last shard's proof.
  rejectedByBoth(bytes, join(dir, "tampered.bundle"), inputs, expect, c);
});

// The file at `path` verified here and by `starling verify --json`: both
// accept it and say the same of it. Returns both answers.
function verifiedAsTheCliVerifies(path, inputs, expect, c) {
  const v = verify(readFileSync(path), { kind: "sha256", inputs });
  const cli = cliVerify(path, expect, c, ["--json"]);
  assert.equal(cli.code, 0, cli.stderr);
  const json = JSON.parse(cli.stdout);
  assert.deepEqual(
    { kind: v.kind, count: v.count, circuit: v.circuit, publicDigest: v.publicDigest, zk: v.zk, outputs: v.outputs },
    { kind: json.kind, count: json.count, circuit: json.circuit, publicDigest: json.public_digest, zk: json.zk, outputs: json.outputs },
  );
  return { v, json };
}

// `bytes` with a byte near its end flipped (written to `path` for the
// command line): rejected here and by `starling verify`.
function rejectedByBoth(bytes, path, inputs, expect, c) {
  const tampered = Buffer.from(bytes);
  tampered[tampered.length - 100] ^= 1;
  writeFileSync(path, tampered);
  assert.equal(cliVerify(path, expect, c).code, 1);
  assert.throws(() => verify(tampered, { kind: "sha256", inputs }), { name: "StarlingRejected" });
}
