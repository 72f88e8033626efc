use std::sync::Arc;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scheme = starling::kind::SignatureScheme::from_name(&args[1]).unwrap();
    let kind = starling::kind::Signatures::new(scheme);
    let count: usize = args[2].parse().unwrap();
    let (public, private) = kind.random_batch(count, 32, 7);
    let proved = starling::prove_private(
        Arc::new(kind),
        public,
        private,
        starling::Profile::Default,
        &mut |_| {},
    )
    .unwrap();
    std::fs::write(&args[3], proved.file.to_bytes()).unwrap();
}
