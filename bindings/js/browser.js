// The browser entry point: the WebAssembly module is fetched from beside
// this file (bundlers follow the `new URL(..., import.meta.url)`) and
// instantiated before the import completes (top-level await), so `verify`
// is ready as in Node.

import init, * as wasm from "./pkg/starling_verify_wasm.js";
import { makeVerify } from "./core.js";

await init({ module_or_path: new URL("./pkg/starling_verify_wasm_bg.wasm", import.meta.url) });

export { DEFAULT_MIN_SECURITY_BITS } from "./core.js";
export const verify = makeVerify(wasm);
