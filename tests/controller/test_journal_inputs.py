"""The `hw.batch` codec (controller/journal/inputs.py): whatever the reader and the table
said comes back exactly, batch after batch, with every kind of change a real reader makes
(RSSI that moves, repeated tags, reordered answers, no RSSI at all, events with their own
times), and a damaged or orphaned batch is one clear error."""

from __future__ import annotations

import json
import random

import pytest

from controller.devices.events import FrameError, TagsRead
from controller.journal.inputs import InputDecoder, InputEncoder, ReaderStep, TableChunk, round_time
from controller.journal.records import JournalError


def _random_items(rng: random.Random, n: int, t0: float) -> list:
    uids = [rng.randbytes(12) for _ in range(40)]
    held = {a: rng.sample(uids, rng.randint(0, 8)) for a in range(1, 18)}
    items, t = [], t0
    for _ in range(n):
        t += rng.uniform(0.0, 0.05)
        if rng.random() < 0.1:
            items.append(TableChunk(t, rng.randbytes(rng.randint(0, 12))))
            continue
        events: list = []
        for antenna in rng.sample(range(1, 18), rng.randint(0, 8)):
            tags = held[antenna]
            change = rng.random()
            if change < 0.3 and tags:
                tags.pop(rng.randrange(len(tags)))
            elif change < 0.5:
                tags.insert(rng.randint(0, len(tags)), rng.choice(uids))  # maybe a repeat
            elif change < 0.55:
                rng.shuffle(tags)
            style = rng.random()
            if style < 0.1:
                rssi: tuple[int, ...] = ()
            elif style < 0.3:
                rssi = tuple(rng.randint(-90, 300) for _ in tags)
            else:
                rssi = tuple(0x5D if i % 3 else 0x38 for i, _ in enumerate(tags))
            own = t if rng.random() < 0.9 else t - rng.uniform(0, 0.01)
            events.append(TagsRead(own, antenna, tuple(tags), rssi))
        if rng.random() < 0.1:
            events.append(FrameError(t, "reader", "bad-crc", rng.randbytes(rng.randint(0, 9))))
        items.append(ReaderStep(t, tuple(events), rng.random() < 0.3))
    return items


@pytest.mark.parametrize("seed", range(8))
def test_every_input_comes_back_exactly_batch_after_batch(seed):
    rng = random.Random(seed)
    items = _random_items(rng, 600, 1000.0 + rng.random())
    encoder, decoder = InputEncoder(), InputDecoder()
    back, at = [], 0
    while at < len(items):
        n = rng.randint(1, 40)
        if rng.random() < 0.1:
            encoder.reset()
        payload = json.loads(json.dumps(encoder.encode(items[at : at + n])))  # as stored
        back += decoder.decode(payload)
        at += n
    assert back == items


def test_a_repeated_answer_costs_a_few_bytes():
    uids = tuple(bytes([0xE2, 0x80, i] * 4) for i in range(13))
    read = ReaderStep(5.0, (TagsRead(5.0, 1, uids, (0x5D,) * 13),), True)
    encoder = InputEncoder()
    first = len(encoder.encode([read])["data"])
    again = [ReaderStep(5.0 + i / 10, (TagsRead(5.0 + i / 10, 1, uids, (0x5D,) * 13),), True)
             for i in range(1, 101)]  # fmt: skip
    assert len(encoder.encode(again)["data"]) < first + 100 * 12


def test_a_batch_coded_against_earlier_ones_needs_them():
    encoder = InputEncoder()
    step = ReaderStep(1.0, (TagsRead(1.0, 2, (b"\x01" * 12,), (93,)),), True)
    encoder.encode([step])
    later = encoder.encode([step])
    assert later["key"] is False
    with pytest.raises(JournalError, match="no key batch read"):
        InputDecoder().decode(later, "record 9")


def test_a_damaged_batch_is_one_clear_error():
    payload = InputEncoder().encode([ReaderStep(1.0, (), True)])
    payload["data"] = payload["data"][:-3] + "!!!"
    with pytest.raises(JournalError, match="record 7: damaged input batch"):
        InputDecoder().decode(payload, "record 7")
    with pytest.raises(JournalError, match="unknown input codec 'x'"):
        InputDecoder().decode({**payload, "codec": "x"}, "record 7")


def test_a_round_is_closed_at_its_last_read_else_at_the_step():
    assert round_time(9.0, 8.5) == 8.5
    assert round_time(9.0, None) == 9.0
