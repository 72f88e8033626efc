#!/usr/bin/env python3
"""NIST ACVP SLH-DSA sigVer cases as prover lines.

Writes crates/starling/tests/vectors/acvp-slh-dsa-sigver-{shake,sha2}.txt
from gen-val/json-files/SLH-DSA-sigVer-FIPS205/internalProjection.json of
usnistgov/ACVP-Server, as the RustCrypto signatures repository carries it
(slh-dsa/tests/acvp). Each case is a comment line
`# SET tcId=ID pass|fail REASON` and a prover line `PK MSG SIG` (`-` for
an empty message). The cases are fixed, so running it again gives the same
files:

    git --git-dir=PATH/TO/signatures.git show \\
        HEAD:slh-dsa/tests/acvp/SLH-DSA-sigVer-FIPS205/internalProjection.json > sigver.json
    python3 scripts/acvp-slh-dsa-vectors.py sigver.json
"""

import json
import os
import sys

OUT = os.path.join(os.path.dirname(__file__), "..", "crates", "starling", "tests", "vectors")

SOURCE = """\
# NIST ACVP SLH-DSA sigVer vectors (FIPS 205, internal interface: the message is M'),
# the {family} groups of gen-val/json-files/SLH-DSA-sigVer-FIPS205/internalProjection.json
# of usnistgov/ACVP-Server as the RustCrypto signatures repository carries it
# (slh-dsa/tests/acvp). One case a line, PK MSG SIG, after a comment line
"""

# (file, family, the groups' name prefix, header's last lines, the cases a
# group keeps: parameter set -> tcIds, every case of a group not named)
FILES = [
    (
        "acvp-slh-dsa-sigver-shake.txt",
        "SHAKE",
        "SLH-DSA-SHAKE-",
        "# `# SET tcId=ID pass|fail REASON`; SLH-DSA-SHAKE-256f keeps two of its nine cases.\n",
        {"SLH-DSA-SHAKE-256f": [30, 33]},
    ),
    (
        "acvp-slh-dsa-sigver-sha2.txt",
        "SHA-2",
        "SLH-DSA-SHA2-",
        "# `# SET tcId=ID pass|fail REASON`. The file has SHA-2 groups for 192s and 256f\n"
        "# only (none at category 1); SLH-DSA-SHA2-192s keeps its nine cases and, to stay\n"
        "# under 0.9 MB, SLH-DSA-SHA2-256f four of its nine: one valid signature\n"
        "# (tcId 14) and the modified SIGFORS, R and SIGHT (tcIds 10, 11, 18).\n",
        {"SLH-DSA-SHA2-256f": [10, 11, 14, 18]},
    ),
]


def lines(groups, prefix, keep):
    out = []
    for group in groups:
        name = group["parameterSet"]
        if not name.startswith(prefix):
            continue
        assert group["testType"] == "AFT", name
        ours = "slh-dsa-" + name[len("SLH-DSA-"):].lower()
        for case in group["tests"]:
            if name in keep and case["tcId"] not in keep[name]:
                continue
            verdict = "pass" if case["testPassed"] else "fail"
            out.append(f"# {ours} tcId={case['tcId']} {verdict} {case['reason']}\n")
            msg = case["message"].lower() or "-"
            out.append(f"{case['pk'].lower()} {msg} {case['signature'].lower()}\n")
    return "".join(out)


def main():
    with open(sys.argv[1]) as f:
        groups = json.load(f)["testGroups"]
    for file, family, prefix, tail, keep in FILES:
        text = SOURCE.format(family=family) + tail + lines(groups, prefix, keep)
        with open(os.path.join(OUT, file), "w") as f:
            f.write(text)
        print(f"{file}: {len(text)} bytes")


if __name__ == "__main__":
    main()
