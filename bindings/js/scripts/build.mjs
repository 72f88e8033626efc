// `npm run build`: the WebAssembly verifier and its wasm-bindgen glue in
// pkg/. The glue comes from bindgen/, a small program over wasm-bindgen's
// library, built by cargo on this machine; the wasm32-unknown-unknown
// target is installed with rustup, so that a fresh clone needs only Rust
// and Node.

import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const crate = "starling_verify_wasm";

function run(command, args, options = {}) {
  console.log(`> ${command} ${args.join(" ")}`);
  execFileSync(command, args, { cwd: root, stdio: "inherit", ...options });
}

// The WebAssembly target, where rustup manages the toolchain (a no-op once
// it is installed); elsewhere the toolchain must have it already.
try {
  run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
} catch (e) {
  if (e.code !== "ENOENT") throw e;
  console.log("no rustup: the Rust toolchain must have the wasm32-unknown-unknown target");
}

run("cargo", ["build", "--target", "wasm32-unknown-unknown", "--release"]);

const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const wasm = join(targetDir, "wasm32-unknown-unknown", "release", `${crate}.wasm`);
const out = join(root, "pkg");
rmSync(out, { recursive: true, force: true });
run("cargo", ["run", "--quiet", "-p", "starling-js-bindgen", "--", wasm, out]);
console.log(`built ${join(out, `${crate}_bg.wasm`)}`);
