import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rulemaze_strategies import any_formula

from svot import errors as project_errors
from svot.rulemaze.errors import RuleError
from svot.rulemaze.rules import ast as A
from svot.rulemaze.rules import format_formula, parse_formula

EXAMPLES = {
    'NOT Zone(t,"yellow")': A.Not(A.Zone(0, "yellow")),
    'Zone(t,"blue") -> Move(t,"right")': A.Implies(A.Zone(0, "blue"), A.Move(0, "right")),
    '(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")':
        A.Implies(A.And(A.Move(-1, "up"), A.Zone(0, "blue_green")), A.Move(0, "right")),
    'Seen("Key")': A.Seen("key"),
    'NOT Moved("down")': A.Not(A.Moved("down")),
    'Count("Food",>=,3)': A.Count("food", ">=", 3),
    'Count("Total_Items",>=,2)': A.Count("total_items", ">=", 2),
    'TargetIs("Treasure")': A.TargetIs("treasure"),
    'Zone(t+1,"pink")': A.Zone(1, "pink"),
}


@pytest.mark.parametrize("text, tree", list(EXAMPLES.items()))
def test_examples_parse_and_print_canonically(text, tree):
    assert parse_formula(text) == tree
    assert format_formula(tree) == text


@pytest.mark.parametrize("text, canonical", [
    ('zone( T , pink ) -> move(t - 1,"UP")', 'Zone(t,"pink") -> Move(t-1,"up")'),
    ("ZONE(t, 'Blue-Green')", 'Zone(t,"blue_green")'),
    ('seen(key) and not targetis("TREASURE")', 'Seen("Key") AND NOT TargetIs("Treasure")'),
    ('count(food, ≥, 3) ∨ ¬seen(heart)', 'Count("Food",>=,3) OR NOT Seen("Heart")'),
    ('Seen(key) → Moved(left)', 'Seen("Key") -> Moved("left")'),
    ('Seen(“Key”)', 'Seen("Key")'),
])
def test_case_insensitive_and_alternative_spellings(text, canonical):
    assert format_formula(parse_formula(text)) == canonical


def test_precedence_and_associativity():
    a, b, c = A.Seen("key"), A.Seen("heart"), A.Seen("food")
    assert parse_formula('Seen(key) OR Seen(heart) AND Seen(food)') == A.Or(a, A.And(b, c))
    assert parse_formula('Seen(key) AND Seen(heart) AND Seen(food)') == A.And(A.And(a, b), c)
    assert parse_formula('Seen(key) -> Seen(heart) -> Seen(food)') == A.Implies(a, A.Implies(b, c))
    assert parse_formula('Seen(key) AND Seen(heart) -> Seen(food)') == A.Implies(A.And(a, b), c)
    assert parse_formula('NOT Seen(key) AND Seen(heart)') == A.And(A.Not(a), b)
    assert parse_formula('NOT (Seen(key) AND Seen(heart))') == A.Not(A.And(a, b))
    assert format_formula(A.And(a, A.And(b, c))) == 'Seen("Key") AND (Seen("Heart") AND Seen("Food"))'
    assert format_formula(A.Implies(A.Implies(a, b), c)) == '(Seen("Key") -> Seen("Heart")) -> Seen("Food")'


@given(any_formula)
@settings(max_examples=400, deadline=None)
def test_print_parse_roundtrip(tree):
    text = format_formula(tree)
    assert parse_formula(text) == tree
    assert format_formula(parse_formula(text.lower())) == text  # case-insensitive


@pytest.mark.parametrize("text, column, needle", [
    ('Zon(t,"pink")', 1, "unknown predicate 'Zon'"),
    ('Zone(t,"teal")', 8, "unknown colour 'teal'"),
    ('Move(t,"north")', 8, "unknown direction 'north'"),
    ('Seen("Sword")', 6, "unknown item 'Sword'"),
    ('TargetIs("Dragon")', 10, "unknown target 'Dragon'"),
    ('Count("Food",!=,3)', 14, "unknown operator '!='"),
    ('Count("Food",=,3)', 14, "unknown operator '='"),
    ('Count("Food",>=,x)', 17, "non-negative integer"),
    ('Move(t+2,"up")', 6, "t+2 is not supported"),
    ('Move(s,"up")', 6, "time variable t"),
    ('Zone(t,"pink") Move(t,"up")', 16, "after a complete formula"),
    ('(Seen(key)', 11, "expected ')'"),
    ('Seen(key))', 10, "unbalanced ')'"),
    ('NOT', 4, "expected a predicate"),
    ('Seen(key) AND', 14, "expected a predicate"),
    ('AND Seen(key)', 1, "expected a predicate"),
    ('', 1, "empty rule"),
    ('Seen("Key', 6, "unterminated string"),
    ('Seen(key) & Seen(food)', 11, "unexpected character '&'"),
    ('Zone t,"pink")', 6, "expected '(' after Zone"),
])
def test_errors_point_at_the_column(text, column, needle):
    with pytest.raises(RuleError) as info:
        parse_formula(text)
    err = info.value
    assert err.column == column, str(err)
    assert needle in str(err)
    lines = str(err).splitlines()
    assert lines[1] == "  " + text
    assert lines[2] == "  " + " " * (column - 1) + "^"
    assert isinstance(err, ValueError) and isinstance(err, project_errors.RuleError)


def test_scenario_restricts_predicates():
    assert parse_formula('Seen(key)', "QuestMaze") == A.Seen("key")
    with pytest.raises(RuleError, match="not available in RegularMaze"):
        parse_formula('Zone(t,"blue") -> Seen(key)', "regular")
    with pytest.raises(RuleError, match="not available in QuestMaze"):
        parse_formula('Zone(t,"blue")', "quest")


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(RuleError, match="nested"):
        parse_formula("(" * 500 + "Seen(key)" + ")" * 500)
    with pytest.raises(RuleError, match="nested"):
        parse_formula("NOT " * 500 + "Seen(key)")


@given(st.text(alphabet='ZoneMvSdCuTgIt()",<>=-+1 23ANDORTaeykfph_→¬', max_size=40))
@settings(max_examples=500, deadline=None)
def test_garbage_only_raises_rule_error(text):
    try:
        tree = parse_formula(text)
    except RuleError as err:
        assert 1 <= err.column <= len(text) + 1
    else:
        assert parse_formula(format_formula(tree)) == tree
