"""The native half of ``starling``; call the functions of ``starling``
itself, which check and convert their arguments first."""

DEFAULT_MIN_SECURITY_BITS: float
KIND_NAMES: list[str]
MAX_SHARDS: int

def prove(
    kind: str,
    inputs: str,
    params: dict[str, str],
    profile: str,
    zk: bool,
    threads: int | None,
    progress: object | None,
    source: str | None = None,
) -> bytes: ...
def verify(
    proof: bytes,
    kind: str,
    inputs: str,
    params: dict[str, str],
    min_security: float,
    threads: int | None,
) -> tuple[str, int, str, str, str, bool, float, list[str], int]: ...
def bench(
    kind: str,
    params: dict[str, str],
    sizes: dict[str, int],
    runs: int,
    profile: str,
    zk: bool,
    threads: int | None,
) -> str: ...
def check_inputs(kind: str, inputs: str, params: dict[str, str], source: str | None) -> int: ...
def check_proved(
    proof: bytes,
    kind: str,
    inputs: str,
    params: dict[str, str],
    min_security: float,
    threads: int | None,
) -> tuple[str, int, str, str, str, bool, float, list[str], int]: ...
def bundle(proofs: list[bytes]) -> bytes: ...
def chain_end(hash: str, start: str, steps: int) -> str: ...
def check_random(kind: str, count: int, params: dict[str, str]) -> None: ...
def cut_records(text: str, sizes: list[int]) -> list[str]: ...
def member_paths(kind: str, inputs: str, params: dict[str, str], source: str | None) -> tuple[int, list[str]]: ...
def random_inputs(kind: str, count: int, seed: int, params: dict[str, str]) -> str: ...
def keep_buffers_between_proofs() -> None: ...
