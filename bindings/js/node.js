// The Node entry point: the WebAssembly module is read from this package's
// folder and instantiated synchronously at import, so `verify` is ready.

import { readFileSync } from "node:fs";

import * as wasm from "./pkg/starling_verify_wasm.js";
import { makeVerify } from "./core.js";

wasm.initSync({ module: readFileSync(new URL("./pkg/starling_verify_wasm_bg.wasm", import.meta.url)) });

export { DEFAULT_MIN_SECURITY_BITS } from "./core.js";
export const verify = makeVerify(wasm);
