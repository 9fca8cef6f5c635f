"""Rule sets load from data and reject what does not fit the schema."""

import pytest

from rules.ruleset import DEFAULT, Indent, UnknownRuleSet, available, load, parse
from rules.schema import SchemaError


def test_every_shipped_rule_set_loads():
    assert DEFAULT in available()
    for name in available():
        rs = load(name)
        assert rs.name == name
        assert sum(rs.tiles.wall_stacks) * 2 == rs.tiles.set.value


def test_sbr_mil_follows_the_rulebook():
    rs = load("sbr-mil")
    assert rs.wall.indent is Indent.MIN
    assert rs.scoring.fan_cap == 3
    assert rs.fan("full-flush") == 2
    assert rs.payments.void_penalty == 48


def test_unknown_rule_set_lists_the_known_ones():
    with pytest.raises(UnknownRuleSet, match="sbr-mil"):
        load("no-such-rules")


HEADER = '[ruleset]\nname = "x"\ntitle = "x"\nfollows = "004"\n'


@pytest.mark.parametrize(
    ("body", "section", "key", "words"),
    [
        ("[play]\nclaim-secs = 3\n", "play", "claim-secs", "unknown key"),
        ("[play]\nclaim-seconds = 99\n", "play", "claim-seconds", "out of range"),
        ('[wall]\nindent = "max"\n', "wall", "indent", "not one of"),
        ("[tiles]\nwall-stacks = [14, 13, 14]\n", "tiles", "wall-stacks", "expected 4 values"),
        ("[tiles]\nwall-stacks = [14, 14, 14, 14]\n", "tiles", "wall-stacks", "walls hold 112"),
        ('[scoring.fans]\nkong = "one"\n', "scoring.fans", "kong", "whole number"),
        ("[payments]\nvoid-penalty = true\n", "payments", "void-penalty", "whole number"),
        # the readings of issue 14
        ('[play]\nvoid-suit-set = "maybe"\n', "play", "void-suit-set", "not one of"),
        ("[play]\nsequential-claim = true\n", "play", "sequential-claim", "not one of"),
        ("[scoring]\nmaximum-counts-kongs = 1\n", "scoring", "maximum-counts-kongs", "true or"),
        ('[scoring]\nexhausted-wait = "melds"\n', "scoring", "exhausted-wait", "not one of"),
        (
            '[scoring]\nsituation-multipliers = "sum"\n',
            "scoring",
            "situation-multipliers",
            "one of",
        ),
        (
            '[payments]\nvoid-penalty-after-three-hu = "yes"\n',
            "payments",
            "void-penalty-after-three-hu",
            "true or false",
        ),
        (
            "[payments]\nflower-pig-pays-wall-end = 0\n",
            "payments",
            "flower-pig-pays-wall-end",
            "true",
        ),
        ("[play]\nsequential-claims = 1\n", "play", "sequential-claims", "unknown key"),
    ],
)
def test_schema_errors_name_file_section_and_key(body, section, key, words):
    with pytest.raises(SchemaError) as info:
        parse(HEADER + body, "bad.toml")
    err = info.value
    assert (err.source, err.section, err.key) == ("bad.toml", section, key)
    assert words in str(err)
    assert str(err).startswith("bad.toml: [")
