//! `starling-js-bindgen WASM OUT_DIR`: the JavaScript glue for the verifier
//! compiled to wasm32, as `wasm-bindgen --target web --no-typescript` writes
//! it: one ES module that runs in browsers as it is, and in Node when given
//! the bytes of the `.wasm` file (`node.js` reads them).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [wasm, out_dir] = args.as_slice() else {
        eprintln!("usage: starling-js-bindgen WASM OUT_DIR");
        return ExitCode::from(2);
    };
    let generated = wasm_bindgen_cli_support::Bindgen::new()
        .input_path(wasm)
        .web(true)
        .and_then(|b| {
            b.typescript(false)
                // Where the ES module finds its `.wasm` by default: beside it.
                .omit_default_module_path(false)
                .generate(out_dir)
        });
    match generated {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("starling-js-bindgen: {e:#}");
            ExitCode::FAILURE
        }
    }
}
