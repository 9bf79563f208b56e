"""tasks.report exports its names on first use (PEP 562): each one resolves to the object of the module it
names, and the package lists nothing else."""

from __future__ import annotations

import importlib

import pytest

import tasks.report as report


@pytest.mark.parametrize("name", report.__all__)
def test_every_exported_name_is_defined_by_the_module_it_names(name):
    module = importlib.import_module(f"tasks.report.{report._EXPORTS[name]}")
    assert getattr(report, name) is getattr(module, name)


def test_an_unknown_name_is_an_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="no attribute 'leaderbord'"):
        report.leaderbord  # noqa: B018
