#!/usr/bin/env python3
"""Known answers for LMS and HSS from an independent implementation.

Writes crates/starling/tests/vectors/pyhsslms-*.txt: batches of signatures
made by pyhsslms (Vigil Security's HSS/LMS package, RFC 8554 and NIST SP
800-208), one prover line `PK MSG SIG` each, for the sets the RustCrypto
`lms-signature` crate lacks: SHA-256/192 (m24) and SHAKE256 LMS, and HSS. The tests prove
them and check every one-bit change is refused. Run it again to regenerate
(the signatures are randomized, so the files change; the tests do not):

    python3 -m pip install pyhsslms==2.0.0
    python3 scripts/pyhsslms-vectors.py
"""

import os
import pyhsslms.pyhsslms as lms

OUT = os.path.join(os.path.dirname(__file__), "..", "crates", "starling", "tests", "vectors")

# (file, HSS levels or None for a bare LMS key, hash, n, h, w, message lengths)
BATCHES = [
    ("pyhsslms-lms-m24.txt", None, "sha256", 24, 5, [1, 2, 4, 8], [0, 17, 18, 81, 82]),
    ("pyhsslms-hss-m32.txt", 3, "sha256", 32, 5, [4], [0, 9, 10, 200]),
    ("pyhsslms-hss-m24.txt", 2, "sha256", 24, 5, [8], [1, 64]),
    ("pyhsslms-lms-shake.txt", None, "shake", 32, 5, [1, 2, 4, 8], [0, 81, 82, 300]),
    ("pyhsslms-lms-shake-m24.txt", None, "shake", 24, 5, [4], [0, 89, 90]),
    ("pyhsslms-hss-shake.txt", 2, "shake", 32, 5, [8], [5]),
]


def typecodes(hash_name, n, h, w):
    family = 2 * (hash_name == "shake") + (n == 24)
    lms_type = 5 + 5 * family + h // 5 - 1
    ots_type = 1 + 4 * family + {1: 0, 2: 1, 4: 2, 8: 3}[w]
    return lms_type.to_bytes(4, "big"), ots_type.to_bytes(4, "big")


def message(length, salt):
    return bytes((i * 13 + salt) % 256 for i in range(length))


def main():
    for name, levels, hash_name, n, h, widths, lengths in BATCHES:
        lines = []
        for w in widths:
            lms_type, ots_type = typecodes(hash_name, n, h, w)
            scheme = f"lms-{hash_name}-m{n}-h{h}-w{w}"
            if levels is not None:
                scheme = f"hss-l{levels}-{scheme}"
            key = lms.HssPrivateKey(levels or 1, lms_type=lms_type, lmots_type=ots_type)
            pk = key.publicKey().serialize()
            for salt, length in enumerate(lengths):
                msg = message(length, salt)
                sig = key.sign(msg)
                assert key.publicKey().verify(msg, sig)
                if levels is None:
                    # A bare LMS key and signature: without HSS's u32(L) and
                    # u32(L - 1).
                    pk_line, sig_line = pk[4:], sig[4:]
                else:
                    pk_line, sig_line = pk, sig
                lines.append(f"# {scheme}\n{pk_line.hex()} {msg.hex() or '-'} {sig_line.hex()}\n")
        with open(os.path.join(OUT, name), "w") as f:
            f.write("# Signatures by pyhsslms 2.0.0 (scripts/pyhsslms-vectors.py), one prover\n")
            f.write("# line PK MSG SIG each, under the scheme the comment above it names.\n")
            f.writelines(lines)


if __name__ == "__main__":
    main()
