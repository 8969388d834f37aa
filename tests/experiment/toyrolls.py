"""The toy game under another name, with a unit (``roll``, counted in ``--rolls``) and a
shortcut (``--sides N``) that no other game has: the CLI must offer both without an edit
(tests/conformance/test_cli_options.py)."""
from dataclasses import replace

import toygame

GAME = replace(toygame.GAME, name="toy-rolls", units=(replace(toygame.GAME.units[0], name="roll", plural="rolls"),),
               shortcuts={"sides": "sides"})
