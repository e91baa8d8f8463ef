"""Ctrl-C at any moment of a command, from the first import to after its end: one line, never
a traceback, exit 130 (``perfectplay_entry`` and ``cli.main``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import types
from typing import Any

import pytest

import perfectplay_entry
from perfectplay.cli import main

INTERRUPT_IMPORT = """
import sys
class Interrupt:  # a Ctrl-C that lands as the import of module number AT begins
    seen = 0
    def find_spec(self, name, path, target=None):
        Interrupt.seen += 1
        if Interrupt.seen == AT:
            raise KeyboardInterrupt
        return None
import perfectplay_entry
sys.meta_path.insert(0, Interrupt())
perfectplay_entry.main()
print("imports", Interrupt.seen, file=sys.stderr)
"""


def interrupted_at(at: int) -> subprocess.CompletedProcess[str]:
    """``perfectplay list`` whose start-up is stopped by a Ctrl-C as the import of module
    number ``at`` begins (counting every import from the entry point's ``main`` on)."""
    code = INTERRUPT_IMPORT.replace("AT", str(at))
    return subprocess.run([sys.executable, "-c", code, "list"], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_ctrl_c_at_any_import_of_the_start_up_is_one_line() -> None:
    """The project's start-up, from its entry point on (what it controls; a signal that
    lands earlier, inside the interpreter's own start-up, is Python's to report), stopped
    at imports spread over all of it: one line and exit 130 every time."""
    finished = interrupted_at(0)  # never interrupted: how many imports the start-up makes
    assert finished.returncode == 0, finished.stderr
    total = int(finished.stderr.split("imports")[-1])
    assert total > 50  # (numpy, click, rich and the package)
    for at in sorted({1, 2, 3, *range(5, total + 1, max(1, total // 12)), total}):
        done = interrupted_at(at)
        assert "Traceback" not in done.stderr, (at, done.stderr)
        assert (done.returncode, done.stderr) == (130, "perfectplay: error: interrupted\n"), at
        assert done.stdout == ""


SWALLOWED_INTERRUPT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal (a job run in
# the background, as CI may be, starts with Ctrl-C ignored)
class Swallowing:  # C code that meets a Ctrl-C and raises an unrelated ImportError
    seen = 0
    def find_spec(self, name, path, target=None):
        Swallowing.seen += 1
        if Swallowing.seen != 20:
            return None
        stopped = False
        try:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):
                pass
        except KeyboardInterrupt:
            stopped = True
        if stopped:
            raise ImportError("could not import module datetime")
        return None
import perfectplay_entry
sys.meta_path.insert(0, Swallowing())
perfectplay_entry.main()
"""


def test_a_ctrl_c_an_import_swallows_is_still_one_line() -> None:
    """A real SIGINT during the start-up, which an extension's C code would turn into an
    ImportError with no KeyboardInterrupt in its chain: one line and 130 all the same."""
    done = subprocess.run([sys.executable, "-c", SWALLOWED_INTERRUPT, "list"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (done.returncode, done.stderr) == (130, "perfectplay: error: interrupted\n")
    assert done.stdout == ""


def test_ctrl_c_in_a_command_is_exactly_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C while a command runs: its one line, with no blank line before it (click's
    own main writes one)."""
    from perfectplay.cli import common

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(common, "refuse_hopeless", interrupted)  # (called by every solve)
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "tictactoe"])
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "perfectplay: error: interrupted\n"


def test_ctrl_c_once_the_command_runs_exits_130_in_one_line() -> None:
    """The real command and a real SIGINT, sent once the project's own code runs (the
    entry point's first import says so on a pipe: a signal that lands before its ``try``
    is the caller's to handle): one line and the shells' 130, or done already. Ctrl-C as
    at a terminal (a job run in the background, as CI may be, starts with it ignored)."""
    ready, told = os.pipe()
    code = (
        "import os, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import perfectplay_entry\n"
        "class Told:\n"
        "    done = False\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if not Told.done:\n"
        "            Told.done = True\n"
        f"            os.write({told}, b'1'); os.close({told})\n"
        "sys.meta_path.insert(0, Told())\n"
        "sys.argv = ['perfectplay', 'solve', 'tictactoe']\n"
        "perfectplay_entry.main()\n"
    )
    for delay in (0.0, 0.05, 0.1, 0.2, 0.4):
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, pass_fds=(told,))  # fmt: skip
        assert os.read(ready, 1) == b"1"
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        _out, err = child.communicate(timeout=60)
        assert "Traceback" not in err, (delay, err)
        assert child.returncode in (0, 130), (delay, child.returncode, err)
        if child.returncode == 130:  # one line, saying what was interrupted
            assert err.startswith("perfectplay: error: interrupted") and err.count("\n") == 1
    os.close(ready)
    os.close(told)


def test_a_ctrl_c_after_the_command_has_finished_is_ignored() -> None:
    """Python's shutdown would put the default handler back, and a late Ctrl-C would kill
    the process by the signal with no line (status -2): once the command is done, none."""
    code = (
        "import os, signal, sys\n"
        "import perfectplay_entry\n"
        "sys.argv = ['perfectplay', '--help']\n"
        "try:\n"
        "    perfectplay_entry.main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
    )
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert child.returncode == 0, (child.returncode, child.stderr)


class _StoppedInImport(types.ModuleType):
    """A module whose ``main`` fails to load as numpy's extension does under a Ctrl-C (an
    ImportError caused by the KeyboardInterrupt), or, with ``interrupted`` False, fails
    for another reason."""

    def __init__(self, interrupted: bool) -> None:
        super().__init__("perfectplay.cli")
        self.interrupted = interrupted

    def __getattr__(self, name: str) -> Any:
        if self.interrupted:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as exc:
                raise ImportError("numpy failed to initialise") from exc
        raise ImportError("a broken install")


def test_ctrl_c_inside_an_extension_import_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The entry point says "interrupted" for an ImportError a Ctrl-C caused, and lets any
    other ImportError through (a broken install must not pass for a Ctrl-C)."""
    monkeypatch.setitem(sys.modules, "perfectplay.cli", _StoppedInImport(True))
    with pytest.raises(SystemExit) as stopped:
        perfectplay_entry.main()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "perfectplay: error: interrupted\n"
    monkeypatch.setitem(sys.modules, "perfectplay.cli", _StoppedInImport(False))
    with pytest.raises(ImportError, match="broken install"):
        perfectplay_entry.main()
