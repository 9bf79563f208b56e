"""Pruning on a validation set (CSDT Eq. 12 cost-based, Eq. 9 error-based)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification

from algorithms.metrics import cost_loss
from algorithms.tree import CostSensitiveDecisionTreeClassifier
from algorithms.tree._pruning import prune


def _noisy_cost_data(seed, n_samples=400):
    rng = np.random.default_rng(seed)
    X, y = make_classification(n_samples, 6, n_informative=2, flip_y=0.2, weights=[0.75], random_state=seed)
    costs = np.column_stack(
        [np.ones(n_samples), rng.lognormal(1.0, 1.0, n_samples), np.ones(n_samples), np.zeros(n_samples)]
    )
    return X, y, costs


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("criterion", ["cost", "gini"])
@pytest.mark.parametrize("rule", ["cost", "error"])
def test_pruning_never_raises_the_validation_loss(seed, criterion, rule):
    X, y, costs = _noisy_cost_data(seed)
    X_val, y_val, costs_val = X[200:], y[200:], costs[200:]
    grown = CostSensitiveDecisionTreeClassifier(criterion=criterion, min_gain=0.0).fit(
        X[:200], y[:200], cost_matrix=costs[:200]
    )
    pruned = CostSensitiveDecisionTreeClassifier(criterion=criterion, min_gain=0.0, pruning=rule).fit(
        X[:200], y[:200], cost_matrix=costs[:200], validation=(X_val, y_val, costs_val)
    )
    np.testing.assert_array_equal(pruned.grown_tree_.feature, grown.tree_.feature)
    if rule == "cost":
        before, after = (cost_loss(y_val, m.predict(X_val), costs_val) for m in (grown, pruned))
    else:
        before, after = (np.sum(m.predict(X_val) != y_val) for m in (grown, pruned))
    assert after <= before + 1e-9
    assert pruned.tree_.n_internal_nodes < grown.tree_.n_internal_nodes  # noisy labels: something is cut
    assert pruned.tree_.n_internal_nodes == grown.tree_.n_internal_nodes - sum(
        pruned.grown_tree_.subtree_sizes()[node] // 2 for node in _outermost(pruned)
    )


def _outermost(model):
    """Collapsed nodes that are not inside another collapsed node."""
    sizes = model.grown_tree_.subtree_sizes()
    kept = []
    for node in sorted(model.pruned_nodes_):
        if not any(other < node < other + sizes[other] for other in kept):
            kept.append(node)
    return kept


def test_collapses_to_the_root_when_a_leaf_is_always_cheaper():
    X, y, costs = _noisy_cost_data(1)
    negatives = y == 0
    # Validation holds only negatives, which the root leaf (label 0) classifies at zero cost.
    tree = CostSensitiveDecisionTreeClassifier(criterion="gini", min_gain=0.0, pruning="cost").fit(
        X, y, cost_matrix=costs, validation=(X[negatives], y[negatives], costs[negatives])
    )
    assert tree.grown_tree_.label[0] == 0 and tree.grown_tree_.n_internal_nodes > 10
    assert tree.tree_.node_count == 1
    np.testing.assert_array_equal(tree.predict(X), 0)


def test_keeps_a_split_the_validation_set_confirms():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(300, 2))
    y = (X[:, 0] > 0.5).astype(int)
    tree = CostSensitiveDecisionTreeClassifier(pruning="cost", random_state=0).fit(X, y)
    assert tree.tree_.n_internal_nodes == 1 and tree.tree_.feature[0] == 0
    assert tree.tree_.threshold[0] == pytest.approx(0.5, abs=0.02)


def test_unit_costs_make_cost_and_error_pruning_identical():
    X, y, _ = _noisy_cost_data(3)
    by_cost = CostSensitiveDecisionTreeClassifier(criterion="gini", pruning="cost", random_state=0).fit(X, y)
    by_error = CostSensitiveDecisionTreeClassifier(criterion="gini", pruning="error", random_state=0).fit(
        X, y
    )
    assert by_cost.pruned_nodes_ == by_error.pruned_nodes_
    np.testing.assert_array_equal(by_cost.tree_.feature, by_error.tree_.feature)


def test_pruning_on_the_training_data_changes_nothing_for_the_cost_tree():
    """Every split of a cost tree lowered the training cost, so the training set never prunes it."""
    X, y, costs = _noisy_cost_data(4)
    tree = CostSensitiveDecisionTreeClassifier(min_gain=0.0).fit(X, y, cost_matrix=costs)
    pruned, collapsed = prune(tree.tree_, X, y, costs, "cost")
    assert collapsed == [] and pruned.node_count == tree.tree_.node_count


def _hand_tree():
    """Gini tree on x in {0, 1, 2, 3} (positive = 1), by hand:

    node 0: x <= 1.5, label 1 (5 negatives, 7 positives)
      node 1: x <= 0.5, label 0 (5, 1)
        node 2: leaf x = 0, label 0 (2, 1)
        node 3: leaf x = 1, label 0 (3, 0)
      node 4: leaf x >= 2, label 1 (0, 6)
    """
    X = np.array([[0.0], [1.0], [2.0], [3.0]] * 3)
    y = np.array([0, 0, 1, 1] * 3)
    y[0] = 1
    tree = CostSensitiveDecisionTreeClassifier(criterion="gini", min_gain=0.0, pos_label=1).fit(X, y).tree_
    np.testing.assert_array_equal(tree.children_left, [1, 2, -1, -1, -1])
    np.testing.assert_array_equal(tree.label, [1, 0, 0, 0, 1])
    return tree


def test_pruning_collapses_a_split_that_changes_no_validation_decision():
    # Validation classified perfectly by the tree: PC(node 1) = (0 - 0) / 1 = 0 -> collapse (loss unchanged);
    # PC(root) = (0 - 2) / 1 < 0 (the root leaf predicts both negatives positive) -> keep.
    X_val, y_val = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    pruned, collapsed = prune(_hand_tree(), X_val, y_val, np.tile([1.0, 1.0, 0.0, 0.0], (4, 1)), "cost")
    assert collapsed == [1]
    assert pruned.n_internal_nodes == 1 and pruned.threshold[0] == 1.5


def test_pruning_collapses_the_node_with_the_largest_cost_decrease_per_removed_split():
    # Validation: x = 0 is a positive with C_FN = 5, x = 2 a negative with C_FP = 0.1.
    # Tree: FN at x = 0 (5) + FP at x = 2 (0.1) = 5.1. Root leaf (label 1): 0 + 0.1 = 0.1.
    # PC(root) = (5.1 - 0.1) / 2 splits = 2.5 > PC(node 1) = (5 - 5) / 1 = 0 -> the root goes first (Eq. 12).
    X_val, y_val = np.array([[0.0], [2.0]]), np.array([1, 0])
    costs_val = np.array([[0.0, 5.0, 0.0, 0.0], [0.1, 0.0, 0.0, 0.0]])
    pruned, collapsed = prune(_hand_tree(), X_val, y_val, costs_val, "cost")
    assert collapsed == [0]
    assert pruned.node_count == 1 and pruned.label[0] == 1


def test_validation_fraction_is_stratified_and_seeded():
    X, y, costs = _noisy_cost_data(5)
    first = CostSensitiveDecisionTreeClassifier(pruning="cost", validation_fraction=0.25, random_state=3)
    second = CostSensitiveDecisionTreeClassifier(pruning="cost", validation_fraction=0.25, random_state=3)
    first.fit(X, y, cost_matrix=costs)
    second.fit(X, y, cost_matrix=costs)
    np.testing.assert_array_equal(first.grown_tree_.threshold, second.grown_tree_.threshold)
    assert first.grown_tree_.n_node_samples[0] == 300  # 400 - ceil(0.25 * 400)
    positives_grown = first.grown_tree_.value[0, 1]
    assert positives_grown == pytest.approx(0.75 * y.sum(), abs=1)


def test_validation_errors():
    X, y, costs = _noisy_cost_data(6, n_samples=60)
    tree = CostSensitiveDecisionTreeClassifier(pruning="cost")
    with pytest.raises(ValueError, match="needs the validation costs"):
        tree.fit(X, y, cost_matrix=costs, validation=(X, y))
    with pytest.raises(ValueError, match="validation must be a tuple"):
        tree.fit(X, y, validation=X)
    with pytest.raises(ValueError, match="validation has 60 rows in X_val but 59 labels"):
        tree.fit(X, y, validation=(X, y[:59]))
    with pytest.raises(ValueError, match=r"validation labels \[7\] are not among the classes"):
        tree.fit(X, y, validation=(X, np.full(60, 7)))
    with pytest.raises(ValueError, match="X has 5 features"):
        tree.fit(X, y, validation=(X[:, :5], y))


def test_validation_weights_multiply_the_pruning_loss():
    # x = 0: positive with C_FN = 5 and weight w; x = 1: negative with C_FP = 1.
    # Tree loss 5 w (missed positive), root leaf (label 1) loss 1 (false positive): PC(root) = (5 w - 1) / 2.
    X_val, y_val = np.array([[0.0], [1.0]]), np.array([1, 0])
    costs_val = np.array([[0.0, 5.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    _, collapsed = prune(
        _hand_tree(), X_val, y_val, costs_val, "cost", sample_weight_val=np.array([1.0, 1.0])
    )
    assert collapsed == [0]
    _, collapsed = prune(
        _hand_tree(), X_val, y_val, costs_val, "cost", sample_weight_val=np.array([0.0, 1.0])
    )
    assert collapsed == [1]  # PC(root) = -0.5 keeps the root split; node 1 changes nothing (PC = 0)
