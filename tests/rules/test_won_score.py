"""The score of each Hu is exposed on its `Won` fact (issue 3 item 10 follow-up): the
patterns, fan and value the ledger paid, None for a false Hu."""

from rules.bots import play_deal
from rules.deal import Deal
from rules.moves import Accepted, ChooseVoid, Discard, Hu, Won
from rules.random_deals import deal_seed
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Suit, Tile, parse_tiles
from rules.wall import Dice, compose

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N


def _deal() -> Deal:
    rs = load("sbr-mil")
    hands = {
        E: parse_tiles("5p1122334455667m"),  # void p: the face-down 5p goes first
        S: parse_tiles("55p111222333s99s"),  # void m: waits on 5p (and 9s)
        W: parse_tiles("46p444555666s88s"),  # void m: waits on 5p
        N: parse_tiles("1123789p778899m"),  # void s: 5p does not complete it
    }
    deal = Deal.start(rs, Dice(6, 4), compose(rs, Dice(6, 4), hands))
    for move in (
        ChooseVoid(E, Suit.P, Tile.P5),
        ChooseVoid(S, Suit.M),
        ChooseVoid(W, Suit.M),
        ChooseVoid(N, Suit.S),
    ):
        assert deal.apply(move)
    return deal


def test_each_hu_carries_the_score_it_was_paid_and_a_false_hu_none():
    deal = _deal()
    assert deal.apply(Discard(E, Tile.P5))
    assert deal.apply(Hu(S)) and deal.apply(Hu(W))
    result = deal.apply(Hu(N))  # 1123789p778899m + 5p: no shape, a false Hu
    assert isinstance(result, Accepted)
    won = {f.seat: f for f in result.facts if isinstance(f, Won)}
    # S: 555p 111s 222s 333s 99s read as four pungs + pair: all-pungs 1 fan, A = 2
    # (004 Table 4; the reading as three chows scores nothing and is not the best)
    s = won[S].score
    assert s is not None and (s.total_fan, s.value) == (1, 2)
    assert [p.name for p in s.patterns] == ["all-pungs"]
    # W: 456p 444s 555s 666s 88s: no fan, A = 1
    w = won[W].score
    assert w is not None and (w.total_fan, w.value, w.patterns) == (0, 1, ())
    assert won[N].false_hu and won[N].score is None
    # the ledger paid what the scores say: E pays 2 to S and 1 to W (004 Table 6)
    paid = [(x.payer, x.payee, x.points) for x in deal.ledger().lines if x.payer is E]
    assert (E, S, 2) in paid and (E, W, 1) in paid
    assert deal.winners[0].score == s


def test_bot_deals_expose_a_score_matching_every_valid_hu():
    rs = load("wmt")
    seen = 0
    for i in range(40):
        deal, _ = play_deal(rs, deal_seed(11, i))
        for won in deal.winners:
            if won.false_hu:
                assert won.score is None
            else:
                assert won.score is not None and won.score.value == won.value
                seen += 1
    assert seen > 40
