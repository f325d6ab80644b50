"""Card abilities as data: the vocabulary (one registry), the parser and the run time.

The format is documented in docs/abilities.md; its vocabulary tables are generated from the
registry (``python -m engine.abilities.doc``). The modules:

- ``registry``: the ``Word`` entries and value schemas; the decorators ``@effect``, ``@cost``,
  ``@filter_key``, ``@condition``, ``@selector`` and ``event(...)``
- ``filters``, ``selectors``, ``conditions``, ``events``, ``costs``, ``effects``: the words, each
  with its schema, doc line and implementation
- ``model``: ``Ability`` (a parsed ability) and ``Ctx`` (what the words refer to at run time)
- ``parse``: ``parse_abilities``, the strict checker
- ``sources``: which abilities a card has now and which cards a player may use
- ``constants``: constant abilities, prohibitions, terminal conditions, attachment restrictions
- ``runtime``: what can be triggered now, and whether an answer is legal
- ``doc``: the generated vocabulary tables
- ``render``: Maester's English wording of a card, assembled from each word's ``phrase``

``engine.triggers`` re-exports the run-time functions under their old names.
"""
from engine.abilities.model import Ability, Ctx, _effect_name
from engine.abilities.parse import KINDS, LABELS, PERIODS, PROHIBITIONS, parse_abilities
from engine.abilities.registry import REGISTRY

__all__ = ["Ability", "Ctx", "KINDS", "LABELS", "PERIODS", "PROHIBITIONS", "REGISTRY", "_effect_name",
           "parse_abilities"]
