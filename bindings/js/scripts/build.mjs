// `npm run build`: the WebAssembly verifier and its wasm-bindgen glue in
// pkg/. Installs wasm-bindgen-cli, at the version Cargo.lock names for the
// `wasm-bindgen` crate, into .tools/ when it is not there yet, and the
// wasm32-unknown-unknown target with rustup, so that a fresh clone needs
// only Rust and Node.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tools = join(root, ".tools");
const wasmBindgen = join(tools, "bin", process.platform === "win32" ? "wasm-bindgen.exe" : "wasm-bindgen");
const crate = "starling_verify_wasm";

function run(command, args, options = {}) {
  console.log(`> ${command} ${args.join(" ")}`);
  execFileSync(command, args, { cwd: root, stdio: "inherit", ...options });
}

/** The version of `name` in the crate's Cargo.lock. */
function lockedVersion(name) {
  const lock = readFileSync(join(root, "Cargo.lock"), "utf8");
  const found = lock.match(new RegExp(`\\[\\[package\\]\\]\\nname = "${name}"\\nversion = "([^"]+)"`));
  if (!found) throw new Error(`Cargo.lock names no ${name}`);
  return found[1];
}

/** The installed wasm-bindgen's version, or undefined. */
function installedVersion() {
  if (!existsSync(wasmBindgen)) return undefined;
  try {
    return execFileSync(wasmBindgen, ["--version"], { encoding: "utf8" }).trim().split(" ")[1];
  } catch {
    return undefined;
  }
}

// The WebAssembly target, where rustup manages the toolchain (a no-op once
// it is installed); elsewhere the toolchain must have it already.
try {
  run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
} catch (e) {
  if (e.code !== "ENOENT") throw e;
  console.log("no rustup: the Rust toolchain must have the wasm32-unknown-unknown target");
}

// The library first: it settles Cargo.lock, and with it the wasm-bindgen
// version the command-line tool must match.
run("cargo", ["build", "--target", "wasm32-unknown-unknown", "--release"]);

const version = lockedVersion("wasm-bindgen");
if (installedVersion() !== version) {
  run("cargo", ["install", "wasm-bindgen-cli", "--version", version, "--locked", "--root", tools]);
}

const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const wasm = join(targetDir, "wasm32-unknown-unknown", "release", `${crate}.wasm`);
const out = join(root, "pkg");
rmSync(out, { recursive: true, force: true });
// `--target web`: one ES module that runs in browsers as it is and in Node
// when given the bytes of the .wasm file (node.js reads them).
run(wasmBindgen, ["--target", "web", "--no-typescript", "--out-dir", out, wasm]);
console.log(`built ${join(out, `${crate}_bg.wasm`)}`);
