#!/usr/bin/env node
// Verify time of one proof in Node and in headless Chromium (the least of
// several runs, after one warm-up), and natively when $STARLING_BIN names
// the command line (the least `verify_ms` of `starling verify --json`),
// to compare with `starling bench ... --json`'s verify_ms.
//
//   node bench/verify-time.mjs PROOF [--expect INPUTS --kind KIND
//       [--hash H] [--scheme S] [--ctx HEX] [--interface I] [--bristol FILE]]
//       [--min-security BITS] [--runs N]

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { verify } from "../node.js";
import { launch, missingBrowser } from "../test/chromium.mjs";
import { serve } from "../test/server.mjs";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    expect: { type: "string" },
    kind: { type: "string" },
    hash: { type: "string" },
    scheme: { type: "string" },
    ctx: { type: "string" },
    interface: { type: "string" },
    bristol: { type: "string" },
    "min-security": { type: "string" },
    runs: { type: "string", default: "5" },
  },
});
if (positionals.length !== 1 || Boolean(opts.expect) !== Boolean(opts.kind)) {
  console.error("usage: node bench/verify-time.mjs PROOF [--expect INPUTS --kind KIND [params]] [--runs N]");
  process.exit(2);
}
const proofPath = positionals[0];
const runs = Number(opts.runs);
const proof = new Uint8Array(readFileSync(proofPath));

/** `verify`'s second argument, from the command line's flags. */
const expected = {};
if (opts.kind) {
  expected.kind = opts.kind;
  expected.inputs = readFileSync(opts.expect, "utf8");
  for (const p of ["hash", "scheme", "ctx", "interface"]) if (opts[p] !== undefined) expected[p] = opts[p];
  if (opts.bristol) expected.circuit = readFileSync(opts.bristol, "utf8");
}
if (opts["min-security"]) expected.minSecurityBits = Number(opts["min-security"]);

/** The least of `runs` times `f` takes, in ms, after one warm-up call. */
function least(f) {
  f();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const v = verify(proof, expected);
const report = { kind: v.kind, count: v.count, proof_bytes: proof.length, runs, node_ms: least(() => verify(proof, expected)) };

const missing = missingBrowser();
if (missing) {
  report.chromium_ms = null;
  console.error(`no Chromium timing: ${missing}`);
} else {
  const served = await serve(packageDir);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`${served.url}/demo/index.html`);
    report.chromium = await browser.version();
    report.chromium_ms = await page.evaluate(
      async (base64, expected, runs) => {
        const { verify } = await import("/browser.js");
        const proof = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        verify(proof, expected);
        let best = Infinity;
        for (let i = 0; i < runs; i++) {
          const start = performance.now();
          verify(proof, expected);
          best = Math.min(best, performance.now() - start);
        }
        return best;
      },
      Buffer.from(proof).toString("base64"),
      expected,
      runs,
    );
  } finally {
    await browser.close();
    served.server.close();
  }
}

if (process.env.STARLING_BIN) {
  const args = ["verify", proofPath, "--json"];
  if (opts.kind) args.push("--expect", opts.expect, "--kind", opts.kind);
  for (const p of ["hash", "scheme", "ctx", "interface", "bristol", "min-security"]) {
    if (opts[p] !== undefined) args.push(`--${p}`, opts[p]);
  }
  let best = Infinity;
  for (let i = 0; i <= runs; i++) {
    const r = spawnSync(process.env.STARLING_BIN, args, { encoding: "utf8", maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`starling ${args.join(" ")}: ${r.stderr}`);
    if (i > 0) best = Math.min(best, JSON.parse(r.stdout).verify_ms);
  }
  report.native_ms = best;
}
console.log(JSON.stringify(report));
