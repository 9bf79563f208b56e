"""scikit-learn-compatible estimators for cost-sensitive and imbalanced classification.

``METHODS`` maps every method's stable key (as used by the flows, the CLI and the tests) to its estimator
class. It is a lazy method table (:class:`algorithms._method_table.MethodTable`): importing ``algorithms`` and
reading the keys import no family, and ``METHODS[key]`` imports only the module of that key's class, so
``from algorithms import METHODS; METHODS["adacc1"]`` pays for the boosting modules AdaCC1 needs and not for
imbalanced-learn, the trees or the Bayes minimum risk estimators. Every caller shares the same method table,
and may extend it (``METHODS[key] = cls``).

Registering a family (or a method): add a block ``"family": {key: "module:Class", ...}`` to
:data:`algorithms._method_table.FAMILY_METHODS` (one line per method; the key order is the table's). Its keys
then appear in ``METHODS``, and ``family_methods("family")`` is the family's own table for its
``__init__`` to export (as ``BOOSTING_METHODS`` is). Keep the family's ``__init__`` free of eager imports of
its modules (PEP 562 ``__getattr__``, as in ``algorithms.boosting``), since importing any module of the
family imports its ``__init__`` first. The method-table tests (``tests/algorithms/test_method_table.py``)
check that every entry imports and that a key imports nothing beyond its class.
"""

from algorithms._method_table import FAMILY_METHODS, MethodTable

__all__ = ["METHODS"]

METHODS = MethodTable({key: path for block in FAMILY_METHODS.values() for key, path in block.items()})
