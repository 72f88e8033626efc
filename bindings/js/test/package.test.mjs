// The package as a user installs it: `npm install FOLDER` (a link to this
// folder) and `npm install TARBALL` of `npm pack` (a copy of the files
// package.json lists), then `import { verify } from "starling-verify"` in
// Node.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, before } from "node:test";

import { cases, cliVerify, packageDir, prove, scratch } from "./helpers.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = ["--no-audit", "--no-fund", "--loglevel=error"];

/** A project in `dir` with `spec` installed, and a script that verifies. */
function project(dir, spec) {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "uses-starling-verify", private: true, type: "module" }));
  execFileSync(npm, ["install", ...quiet, spec], { cwd: dir, stdio: "inherit" });
  writeFileSync(
    join(dir, "check.mjs"),
    `import { readFileSync } from "node:fs";
import { verify } from "starling-verify";
const [proof, inputs, kind] = process.argv.slice(2);
const v = verify(readFileSync(proof), { kind, inputs: readFileSync(inputs, "utf8") });
let rejected;
try {
  verify(readFileSync(proof), { kind: "sha512", inputs: readFileSync(inputs, "utf8") });
} catch (e) {
  rejected = e.name;
}
console.log(JSON.stringify({ ...v, rejected }));
`,
  );
}

describe("installed with npm", () => {
  const c = cases().find((c) => c.kind === "sha256");
  const dir = scratch("package");
  let files;
  let cli;
  before(() => {
    files = prove(c, dir);
    cli = JSON.parse(cliVerify(files.proof, files.expect, c, ["--json"]).stdout);
  });

  function check(where) {
    const out = execFileSync(process.execPath, ["check.mjs", files.proof, files.expect, c.kind], {
      cwd: where,
      encoding: "utf8",
    });
    const v = JSON.parse(out);
    assert.equal(v.publicDigest, cli.public_digest);
    assert.deepEqual(v.outputs, cli.outputs);
    assert.equal(v.rejected, "StarlingRejected");
  }

  it("from its folder", () => {
    const where = scratch("install-folder");
    project(where, packageDir);
    check(where);
  });

  it("from the tarball npm pack makes", () => {
    const packed = scratch("pack");
    execFileSync(npm, ["pack", ...quiet, "--pack-destination", packed, packageDir], { cwd: packed, stdio: "ignore" });
    const [tarball] = readdirSync(packed).filter((f) => f.endsWith(".tgz"));
    const where = scratch("install-tarball");
    project(where, join(packed, tarball));
    check(where);
  });
});
