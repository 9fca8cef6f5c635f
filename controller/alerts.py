"""What an alert is about: the one list of alert kinds, whoever raises them (the recogniser's
readings, the daemon's devices, dice and deals). The value is the `code` of the journal's
`alert` record (docs/JOURNAL.md), so a kind is written as the journal says it."""

from __future__ import annotations

from enum import StrEnum


class AlertKind(StrEnum):
    # the recogniser: a reading of the table that is not one legal move
    UNRECOGNISED = "unrecognised"  # fits no legal move
    AMBIGUOUS = "ambiguous"  # fits two
    WALL_MISMATCH = "wall-mismatch"  # a draw that is not the tile the wall holds next
    DECLARATION_WITHOUT_TILES = "declaration-without-tiles"  # 000: yellow card
    TILES_WITHOUT_DECLARATION = "tiles-without-declaration"  # 000: yellow card
    LONG_HAND = "long-hand"
    SHORT_HAND = "short-hand"
    UNKNOWN_TAG = "unknown-tag"
    DUPLICATE_TILE = "duplicate-tile"
    VOID_DISCARD_ORDER = "void-discard-order"  # strict: refused; lenient: allowed, noted
    FALSE_HU = "false-hu"
    RECOVERY = "recovery"  # reconciliation could not recover everything
    DEALER_SIDE = "dealer-side"  # the dealt hands put the dealer on another side
    STALLED = "stalled"  # the table differs from the judge, no move for `grace` s
    # the daemon: the clock, the devices, the deal's start and end
    OVER_TIME = "over-time"  # a seat has taken more than the rule set's move seconds
    DEVICE_LOST = "device-lost"  # a link went down
    TABLE_FAULT = "table-fault"  # the table's board reports a fault code
    LID = "lid"  # the table's lid opened or closed
    DICE = "dice"  # dice reported in a phase that takes none: ignored
    DICE_MISFIT = "dice-misfit"  # no table board: the dealt hands fit the dice but for a few tiles
    DICE_READINGS = "dice-readings"  # no table board: the dealt hands fit several dice (one deal)
    DICE_AMBIGUOUS = "dice-ambiguous"  # no table board: several dice fit, each with misfits
    DICE_UNREAD = "dice-unread"  # no table board: no dice fit the dealt hands
    NO_WALL_SCAN = "no-wall-scan"  # the wall order was not scanned: the deal cannot be judged
    BAD_WALL_SCAN = "bad-wall-scan"  # the scanned wall cannot be dealt
    NO_DEALT_HANDS = "no-dealt-hands"  # play began before the dealt hands were read
    BAD_HANDS = "bad-hands"  # the dealt hands cannot be dealt
    NO_DEAL = "no-deal"  # a move seen with no deal in progress
    VOID_SUIT_SET = "void-suit-set"  # a pung or kong of one's void suit, penalised
    DEAL_ABANDONED = "deal-abandoned"  # a deal started while the last one stayed unsettled
    DEAL_OVERTAKEN = "deal-overtaken"  # after a restart the table is in a later deal
    RESTARTED = "restarted"  # the daemon started again on a journal with a deal in progress
    MACHINE = "machine"  # the table machine has no way to the judge's phase
    INTERNAL_ERROR = "internal-error"  # the core loop failed on an item (a bug, logged)
    SEATING = "seating"  # the hall's seating for the next session, taken or not (lineup.py)
