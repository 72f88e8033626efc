// `verify` against the command line, kind by kind: what an accepted proof
// shows, and the error (name and words) for a tampered proof, a wrong
// expectation and unreadable arguments.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, before } from "node:test";

import { verify, DEFAULT_MIN_SECURITY_BITS } from "../node.js";
import { cases, cliVerify, ERROR_FOR_EXIT, prove, scratch } from "./helpers.mjs";

/** `expected` for a case, as the package takes it. */
const expectation = (c, inputs = c.inputs) => ({ kind: c.kind, inputs, ...c.params });

/** Calls `f` and returns what it throws. */
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail("expected an error");
}

/** `f` throws the error the command line's failure `cli` stands for. */
function assertSameFailure(f, cli, what) {
  assert.notEqual(cli.code, 0, `${what}: the command line accepted it`);
  const e = thrown(f);
  assert.equal(e.name, ERROR_FOR_EXIT[cli.code], `${what}: ${e.message}`);
  // The command line names the files it read: the proof file with a bad
  // magic, the inputs file where it could not read them, and the file and
  // line of a mismatched input; `verify` has no file to name.
  const plain = cli.message
    .replace(/^unreadable proof: \S+\.proof is not/, "unreadable proof: not")
    .replace(/^\S+\.inputs: /, "")
    .replace(/ \(\S+\.inputs: line \d+\)$/, "");
  assert.equal(e.message, plain, what);
  return e;
}

/** The first hex digit of the first line that starts with one, changed. */
function changeFirstInput(inputs) {
  const lines = inputs.split("\n");
  const i = lines.findIndex((l) => /^[0-9a-f]/.test(l));
  lines[i] = (lines[i][0] === "0" ? "1" : "0") + lines[i].slice(1);
  return lines.join("\n");
}

/** A signature's message (the second field of its second line), changed. */
function changeSignedMessage(inputs) {
  const lines = inputs.split("\n");
  const [pk, msg] = lines[1].split(" ");
  lines[1] = `${pk} ${msg[0] === "0" ? "1" : "0"}${msg.slice(1)}`;
  return lines.join("\n");
}

describe("every kind, against the command line", () => {
  const dir = scratch("kinds");
  for (const c of cases()) {
    describe(c.name, () => {
      let files;
      let proof;
      before(() => {
        files = prove(c, dir);
        proof = new Uint8Array(readFileSync(files.proof));
      });

      it("accepts the proof with the fields and outputs the command line prints", () => {
        const json = JSON.parse(cliVerify(files.proof, files.expect, c, ["--json"]).stdout);
        const printed = cliVerify(files.proof, files.expect, c, ["--print-outputs"]);
        assert.equal(printed.code, 0, printed.stderr);
        const v = verify(proof, expectation(c));
        assert.deepEqual(Object.keys(v).sort(), ["circuit", "count", "kind", "outputs", "publicDigest", "securityBits", "shards", "zk"]);
        assert.equal(v.kind, json.kind);
        assert.equal(v.zk, json.zk);
        // The kinds with secrets are always proved with zero knowledge.
        assert.equal(v.zk, c.files !== undefined);
        assert.equal(v.count, json.count);
        assert.equal(v.circuit, json.circuit);
        assert.equal(v.publicDigest, json.public_digest);
        assert.equal(v.securityBits, json.security_bits);
        assert.equal(v.shards, json.shards);
        assert.equal(v.shards, 1);
        assert.deepEqual(v.outputs, json.outputs);
        assert.deepEqual(v.outputs, printed.stdout.trimEnd().split("\n").slice(1));
        assert.ok(v.securityBits >= DEFAULT_MIN_SECURITY_BITS);
      });

      it("without an expectation, checks the proof against itself", () => {
        const json = JSON.parse(cliVerify(files.proof, null, c, ["--json"]).stdout);
        for (const v of [verify(proof), verify(proof, {}), verify(proof, { minSecurityBits: 90 })]) {
          assert.equal(v.kind, json.kind);
          assert.equal(v.publicDigest, json.public_digest);
          assert.deepEqual(v.outputs, json.outputs);
        }
      });

      it("refuses a tampered proof as the command line does", () => {
        for (const at of [3, 40, proof.length >> 1, proof.length - 1]) {
          const tampered = proof.slice();
          tampered[at] ^= 0x10;
          const path = join(dir, `tampered-${at}.proof`);
          writeFileSync(path, tampered);
          const cli = cliVerify(path, files.expect, c, [], dir);
          assertSameFailure(() => verify(tampered, expectation(c)), cli, `byte ${at} flipped`);
          const claimed = cliVerify(path, null, c);
          assertSameFailure(() => verify(tampered), claimed, `byte ${at} flipped, no expectation`);
        }
      });

      it("rejects the proof against other inputs, as the command line does", () => {
        const wrong = c.kind === "signatures" ? changeSignedMessage(c.inputs) : changeFirstInput(c.inputs);
        const path = join(dir, "wrong.inputs");
        writeFileSync(path, wrong);
        const cli = cliVerify(files.proof, path, c);
        assert.equal(cli.code, 1, cli.stderr);
        const e = assertSameFailure(() => verify(proof, expectation(c, wrong)), cli, "other inputs");
        assert.match(e.message, /^proof rejected: the proof is about different inputs/);
      });
    });
  }
});

describe("the bounds of the kinds with secrets", () => {
  const dir = scratch("bounds");
  const c = cases().find((c) => c.kind === "preimage");
  let proof;
  before(() => {
    proof = new Uint8Array(readFileSync(prove(c, dir).proof));
  });

  it("takes maxLen as --max-len, a number", () => {
    assert.equal(verify(proof, { ...expectation(c), maxLen: 64 }).kind, "preimage --hash sha256 --max-len 64");
    const other = thrown(() => verify(proof, { ...expectation(c), maxLen: 63 }));
    assert.equal(other.name, "StarlingRejected");
    assert.match(other.message, /another kind of statement/);
    for (const [extra, words] of [
      [{ maxLen: "64" }, /expected.maxLen must be a whole number of bytes/],
      [{ maxLen: -1 }, /expected.maxLen must be a whole number of bytes/],
      [{ maxLeafLen: 8 }, /--max-leaf-len is not a parameter of preimage statements/],
    ]) {
      const e = thrown(() => verify(proof, { ...expectation(c), ...extra }));
      assert.equal(e.name, "StarlingUnreadable", JSON.stringify(extra));
      assert.match(e.message, words);
    }
  });
});

describe("wrong expectations and unreadable arguments", () => {
  const dir = scratch("errors");
  const c = cases().find((c) => c.kind === "sha256");
  let files;
  let proof;
  before(() => {
    files = prove(c, dir);
    proof = new Uint8Array(readFileSync(files.proof));
  });

  it("rejects fewer inputs, another kind and too little security in the command line's words", () => {
    const fewer = c.inputs.split("\n").slice(1).join("\n");
    const fewerPath = join(dir, "fewer.inputs");
    writeFileSync(fewerPath, fewer);
    assertSameFailure(() => verify(proof, expectation(c, fewer)), cliVerify(files.proof, fewerPath, c), "fewer");

    const sha512 = { ...c, kind: "sha512" };
    const e = assertSameFailure(
      () => verify(proof, expectation(sha512)),
      cliVerify(files.proof, files.expect, sha512),
      "another kind",
    );
    assert.match(e.message, /another kind of statement/);

    const weak = assertSameFailure(
      () => verify(proof, { ...expectation(c), minSecurityBits: 200 }),
      cliVerify(files.proof, files.expect, c, ["--min-security", "200"]),
      "too weak",
    );
    assert.match(weak.message, /weaker than required/);
    assert.equal(thrown(() => verify(proof, { minSecurityBits: 200 })).name, "StarlingRejected");
  });

  it("calls unreadable what the command line cannot read", () => {
    const bad = join(dir, "bad.inputs");
    writeFileSync(bad, "not hex\n");
    assertSameFailure(() => verify(proof, expectation(c, "not hex\n")), cliVerify(files.proof, bad, c), "bad inputs");
    const noHash = { ...c, kind: "digest" };
    assertSameFailure(() => verify(proof, expectation(noHash)), cliVerify(files.proof, files.expect, noHash), "no hash");
    const notProof = join(dir, "not.proof");
    const text = new TextEncoder().encode("hello, this is a text file and not a proof\n".repeat(4));
    writeFileSync(notProof, text);
    assertSameFailure(() => verify(text), cliVerify(notProof, null, c), "not a proof");
    for (const [expected, words] of [
      [{ kind: "sha-256", inputs: c.inputs }, /"sha-256" is not a statement kind/],
      [{ kind: "sha256", inputs: c.inputs, hash: "sha256" }, /--hash is not a parameter of sha256 statements/],
      [{ kind: "sha256" }, /go together/],
      [{ inputs: c.inputs }, /go together/],
      [{ hash: "sha256" }, /parameter of the expected kind/],
      [{ kind: "sha256", inputs: c.inputs, bristol: "x" }, /expected.bristol is not a parameter/],
      [{ kind: 7, inputs: c.inputs }, /must be a string/],
      [{ minSecurityBits: "100" }, /finite number/],
    ]) {
      const e = thrown(() => verify(proof, expected));
      assert.equal(e.name, "StarlingUnreadable", JSON.stringify(expected));
      assert.match(e.message, words);
    }
    const e = thrown(() => verify(Array.from(proof)));
    assert.equal(e.name, "StarlingUnreadable");
    assert.ok(e instanceof Error);
  });
});
