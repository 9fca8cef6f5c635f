"""rules.draws makes the standard library's draws: the same permutation as
`random.Random.shuffle` and the same index as `random.Random._randbelow`, from the same
state, leaving the generator in the same state."""

import random

import pytest

from rules.draws import below, shuffle


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 108, 136, 144, 300])
def test_shuffle_is_the_standard_librarys_shuffle(n) -> None:
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(n)), list(range(n))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b, (n, seed)
        assert ours.getstate() == theirs.getstate()


def test_below_is_the_standard_librarys_randbelow() -> None:
    ours, theirs = random.Random(7), random.Random(7)
    for n in [*range(1, 300), 1 << 20, (1 << 20) + 1]:
        for _ in range(20):
            assert below(ours, n) == theirs._randbelow(n), n
    assert ours.getstate() == theirs.getstate()


class _Drawn(random.Random):
    """A generator that draws its own way: passed to its own methods."""

    def random(self) -> float:
        return 0.5

    def _randbelow(self, n: int) -> int:
        return n - 1


def test_a_subclass_draws_with_its_own_methods() -> None:
    x = list(range(5))
    shuffle(_Drawn(1), x)
    ref = list(range(5))
    _Drawn(1).shuffle(ref)
    assert x == ref
    assert below(_Drawn(1), 9) == 8
