"""Issue 25 item 6: one error tree. Every exception class the project defines is a
`TableError` (rules/errors.py draws the tree), so a caller that wants "any error mjtable
raises on purpose" catches one class; the built-in base a class also has (`ValueError`,
`LookupError`) stays for argparse and for callers that know only that."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import controller
import rules
import tools
from controller.errors import Malformed, NoSuchRecord, Refused
from rules.errors import RulesError, TableError


def _project_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for package in (rules, controller, tools):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if (
                    inspect.isclass(obj)
                    and issubclass(obj, BaseException)
                    and obj.__module__ == module.__name__
                ):
                    found[f"{module.__name__}.{name}"] = obj
    return found


def test_every_exception_the_project_defines_is_a_table_error() -> None:
    found = _project_exceptions()
    outside = {name for name, cls in found.items() if not issubclass(cls, TableError)}
    assert outside == set()


def test_the_rules_errors_are_one_branch_and_keep_their_builtin_kind() -> None:
    from rules.ruleset import UnknownRuleSet
    from rules.tiles import NotationError, Tile

    with pytest.raises(RulesError) as caught:
        Tile.parse("0x")
    assert isinstance(caught.value, NotationError) and isinstance(caught.value, ValueError)
    assert issubclass(UnknownRuleSet, LookupError)


@pytest.mark.parametrize("cls", [Malformed, NoSuchRecord])
def test_one_refused_class_whatever_the_reason(cls: type[Refused]) -> None:
    assert issubclass(cls, Refused) and issubclass(cls, TableError)
