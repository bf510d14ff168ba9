"""The one picker: a select per peg on any route whose fields before the peg are its key (a game
id, a game and the version it was opened on, or whatever a mode picks with), read back from the
message's menus by that key alone."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.engine.codes import CodeSpace
from bot.ui import components
from bot.ui.i18n import ENGLISH
from bot.ui.ids import ID, Route

SPACE = CodeSpace(4, 6, True)
BY_GAME = Route("t-pick", (("game", ID), ("peg", 1)))
BY_TURN = Route("t-turn", (("game", ID), ("version", ID), ("peg", 1)))
BY_SETUP = Route("t-setup", (("setup", 8), ("peg", 1)))


def as_message(view: Any) -> Any:
    """What `picked_colours` reads of a sent message: rows of components with their options."""
    children = [
        SimpleNamespace(custom_id=item.custom_id, options=getattr(item, "options", []))
        for item in view.children
    ]
    return SimpleNamespace(components=[SimpleNamespace(children=children)])


def drawn(route: Route, key: Any, chosen: list[int | None], **kw: Any) -> Any:
    view = components.RenderedView()
    components.add_picker(view, route, key, SPACE, chosen, "mm:t-send:1", t=ENGLISH, **kw)
    return view


def test_a_picker_keyed_by_its_game_reads_back_its_choices() -> None:
    view = drawn(BY_GAME, 77, [1, None, 3, 0])
    assert [item.custom_id for item in view.children][:2] == ["mm:t-pick:77:0", "mm:t-pick:77:1"]
    assert components.picked_colours(as_message(view), 77, SPACE, route=BY_GAME) == [1, None, 3, 0]
    assert components.picked_colours(as_message(view), 78, SPACE, route=BY_GAME) == [None] * 4


def test_a_picker_keyed_by_several_fields_or_another_name_reads_back_by_the_whole_key() -> None:
    turn = drawn(BY_TURN, (77, 5), [2, 2, 2, 2])
    assert turn.children[0].custom_id == "mm:t-turn:77:5:0"
    assert components.picked_colours(as_message(turn), (77, 5), SPACE, route=BY_TURN) == [2] * 4
    assert components.picked_colours(as_message(turn), (77, 4), SPACE, route=BY_TURN) == [None] * 4
    setup = drawn(BY_SETUP, 40611010, [0, 1, 2, 3], submit="Set secret")
    assert components.picked_colours(as_message(setup), 40611010, SPACE, route=BY_SETUP) == [
        0,
        1,
        2,
        3,
    ]
    assert setup.children[-1].label == "Set secret"
    assert turn.children[-1].label == "Submit guess"


def test_the_code_modal_says_what_it_is_for() -> None:
    modal = components.CodeModal(
        "mm:t:1", SPACE, t=ENGLISH, title="Set your secret", label="Secret"
    )
    assert modal.title == "Set your secret" and "'label': 'Secret'" in str(modal.to_dict())
    assert components.CodeModal("mm:t:1", SPACE, t=ENGLISH).title == "Guess the code"
