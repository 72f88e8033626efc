"""Proofs that do not prove the expected statement are Rejected; what
cannot be read is Unreadable; both say what, as the command line does."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run, statements

import starling

SHA256 = statements()[0]
DIGEST = statements()[3]


@pytest.fixture(scope="module")
def proof() -> bytes:
    return starling.prove("sha256", SHA256.inputs)


def test_exception_classes() -> None:
    assert issubclass(starling.Rejected, starling.Error)
    assert issubclass(starling.Unreadable, starling.Error)
    assert issubclass(starling.Unreadable, ValueError)
    assert not issubclass(starling.Rejected, starling.Unreadable)


def test_every_tampered_byte_position_fails(proof: bytes) -> None:
    # Bytes spread over the whole file: header, statement, every section.
    for at in range(0, len(proof), len(proof) // 97):
        tampered = bytearray(proof)
        tampered[at] ^= 0x01
        with pytest.raises((starling.Rejected, starling.Unreadable)):
            starling.verify(bytes(tampered), kind="sha256", inputs=SHA256.inputs)


def test_a_tampered_opening_is_rejected_naming_the_check(proof: bytes) -> None:
    tampered = bytearray(proof)
    tampered[-40] ^= 0x80
    with pytest.raises(starling.Rejected, match="proof rejected: the proof does not prove"):
        starling.verify(bytes(tampered), kind="sha256", inputs=SHA256.inputs)


def test_a_truncated_file_is_unreadable(proof: bytes) -> None:
    with pytest.raises(starling.Unreadable, match="unreadable proof"):
        starling.verify(proof[:-7], kind="sha256", inputs=SHA256.inputs)
    with pytest.raises(starling.Unreadable, match="bad magic|not a Starling proof"):
        starling.verify(b"not a proof at all", kind="sha256", inputs=SHA256.inputs)


def test_other_inputs_are_rejected(proof: bytes) -> None:
    lines = SHA256.inputs.splitlines()
    other = lines[:2] + [lines[2][:-1] + ("0" if lines[2][-1] != "0" else "1")] + lines[3:]
    with pytest.raises(starling.Rejected, match="input 2 .* differs first in its block"):
        starling.verify(proof, kind="sha256", inputs="\n".join(other))
    with pytest.raises(starling.Rejected, match="different number of compressions"):
        starling.verify(proof, kind="sha256", inputs="\n".join(lines[:4]))


def test_another_kind_is_rejected(proof: bytes) -> None:
    with pytest.raises(starling.Rejected, match="another kind of statement: it proves sha256 compressions"):
        starling.verify(proof, kind="blake3", inputs=statements()[1].inputs)
    digest = starling.prove("digest", DIGEST.inputs, hash="sha3-256")
    with pytest.raises(starling.Rejected, match="another kind"):
        starling.verify(digest, kind="digest", hash="sha256", inputs=DIGEST.inputs)


def test_a_higher_security_floor_rejects(proof: bytes) -> None:
    with pytest.raises(starling.Rejected, match="weaker than required"):
        starling.verify(proof, kind="sha256", inputs=SHA256.inputs, min_security=110)
    with pytest.raises(starling.Unreadable, match="finite"):
        starling.verify(proof, kind="sha256", inputs=SHA256.inputs, min_security=float("nan"))


@pytest.mark.parametrize(
    ("kind", "text", "params", "message"),
    [
        ("sha256", "00 11\n", {}, "line 1: "),
        ("sha256", SHA256.inputs + "zz\n", {}, "line 6: "),
        ("blake3", "xyz", {}, "line 1: expected 5 fields"),
        ("digest", "0g\n", {"hash": "sha256"}, "line 1: "),
        ("sha256", "", {}, "no inputs"),
        ("sha256", SHA256.inputs, {"hash": "sha256"}, "--hash is not a parameter of sha256 statements"),
        ("chain", "00 1", {}, "need --hash"),
        ("merkle-root", "00", {"hash": "sha512", "scheme": "bitcoin"}, "bitcoin trees are not built with sha512"),
        ("sha-256", "", {}, "is not a statement kind"),
        ("signatures", "00 00 00\n", {"scheme": "lms-sha256-m32-h5-w4", "ctx": "00"}, "parameters of SLH-DSA"),
        ("circuit", "1 1\n", {"bristol": "this is not a circuit"}, "the circuit"),
    ],
)
def test_malformed_inputs_and_parameters_are_unreadable(
    kind: str, text: str, params: dict[str, str], message: str
) -> None:
    with pytest.raises(starling.Unreadable, match=message):
        starling.prove(kind, text, **params)


def test_the_message_is_the_clis(cli: Path, tmp_path: Path, proof: bytes) -> None:
    (tmp_path / "p").write_bytes(proof)
    (tmp_path / "e").write_text(statements()[1].inputs)
    done = run(cli, "verify", tmp_path / "p", "--kind", "blake3", "--expect", tmp_path / "e")
    assert done.returncode == 1
    with pytest.raises(starling.Rejected) as raised:
        starling.verify(proof, kind="blake3", inputs=statements()[1].inputs)
    assert done.stderr.strip() == f"error: {raised.value}"


def test_wrong_python_arguments_are_type_errors() -> None:
    with pytest.raises(TypeError, match="unexpected parameter 'steps'"):
        starling.prove("chain", "00 1", hash="sha256", steps=3)
    with pytest.raises(TypeError):
        starling.prove("sha256", [(1.5,)])
    with pytest.raises(TypeError):
        starling.prove("sha256", b"raw bytes are not text")


def test_bad_profile_and_threads_are_unreadable() -> None:
    with pytest.raises(starling.Unreadable, match="profile"):
        starling.prove("sha256", SHA256.inputs, profile="fast")
    with pytest.raises(starling.Unreadable, match="threads"):
        starling.prove("sha256", SHA256.inputs, threads=0)


def test_a_failing_progress_callback_raises_after_the_proof() -> None:
    calls = []

    def progress(phase: str, done: int, total: int) -> None:
        calls.append(phase)
        raise KeyError(phase)

    with pytest.raises(KeyError, match="instances"):
        starling.prove("sha256", SHA256.inputs, progress=progress)
    assert calls == ["instances"]
