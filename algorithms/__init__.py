"""scikit-learn-compatible estimators for cost-sensitive and imbalanced classification.

``METHODS`` maps every method's stable key (as used by the flows, the CLI and the tests) to its estimator
class. It is a lazy registry (:class:`algorithms._registry.MethodRegistry`): importing ``algorithms`` and
reading the keys import no family, and ``METHODS[key]`` imports only the module of that key's class, so
``from algorithms import METHODS; METHODS["adacc1"]`` pays for the boosting modules AdaCC1 needs and not for
imbalanced-learn, the trees or the Bayes minimum risk estimators. Every caller shares the same registry, and
may extend it (``METHODS[key] = cls``).

Registering a family (or a method): add a block ``"family": {key: "module:Class", ...}`` to
:data:`algorithms._registry.FAMILY_METHODS` (one line per method; the key order is the registry's). Its keys
then appear in ``METHODS``, and ``family_methods("family")`` is the family's own registry for its
``__init__`` to export (as ``BOOSTING_METHODS`` is). Keep the family's ``__init__`` free of eager imports of
its modules (PEP 562 ``__getattr__``, as in ``algorithms.boosting``), since importing any module of the
family imports its ``__init__`` first. The registry tests (``tests/algorithms/test_registry.py``) check that
every entry imports and that a key imports nothing beyond its class.
"""

from algorithms._registry import FAMILY_METHODS, MethodRegistry

__all__ = ["METHODS"]

METHODS = MethodRegistry({key: path for block in FAMILY_METHODS.values() for key, path in block.items()})
