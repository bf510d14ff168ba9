"""The engine's `slow` tests are chosen by their marker: a test whose name or parameters say
"slow" runs like any other (the hook once matched the keyword anywhere, session-wide)."""

from __future__ import annotations

from pathlib import Path

import pytest

HOOKS = Path(__file__).with_name("conftest.py")


def test_only_tests_marked_slow_are_skipped(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MASTERMIND_SLOW_TESTS", raising=False)
    pytester.makeconftest(HOOKS.read_text())
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(
        test_speeds="""
        import pytest

        @pytest.mark.slow
        def test_marked():
            pass

        @pytest.mark.parametrize("speed", ["slow", "fast"])
        def test_named(speed):
            pass

        class TestSlow:
            def test_in_a_class_named_so(self):
                pass
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(passed=3, skipped=1)
    result.stdout.fnmatch_lines(["*test_speeds.py:3: slow: set MASTERMIND_SLOW_TESTS=1*"])
