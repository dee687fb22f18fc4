"""svot evaluate's step keys (issue 14): c^v chains are scored, z_i cannot be confused with s_i.

SVoT §2: "SVoT represents each intermediate state as z_i = <a_i, s_i>" and Eq. (3)-(4)
generate c_i^z, z_i and c_i^v, v_i; §3: r_c scores "each transition reasoning chain c_i"
(Eq. 6), so a reproducer must be able to score c_i^v as well as c_i^z.
"""

from __future__ import annotations

from svot.metrics import evaluate


def _rec(row, **steps):
    return {"id": row["id"], **steps}


def test_visual_chains_are_scored(exported, exported_rows):
    rows = exported_rows[:4]
    good = [_rec(r, cv_texts=[s["reasoning_visual"] for s in r["steps"]]) for r in rows]
    rep = evaluate(exported, good)
    assert rep.issues == []
    n = sum(len(r["steps"]) for r in rows)
    assert sum(g.visual_chain_n for g in rep.groups.values()) == n
    assert all(g.r_cv == 1.0 for g in rep.groups.values())
    assert "r_c(c^v)" in rep.tables()
    # another step's c^v scores lower
    shifted = [_rec(r, cv_texts=[s["reasoning_visual"] for s in r["steps"]][1:] + [r["steps"][0]["reasoning_visual"]]) for r in rows]
    rep2 = evaluate(exported, shifted)
    assert sum(g.visual_chain_reward for g in rep2.groups.values()) < n


def test_state_text_under_z_texts_is_reported_not_silently_zero(exported, exported_rows):
    row = exported_rows[0]
    rep = evaluate(exported, [_rec(row, z_texts=[s["state_text"] for s in row["steps"]])])
    wrong = [i for i in rep.issues if i.kind == "wrong_kind"]
    assert len(wrong) == 1 and "state_text" in wrong[0].message and "z_text" in wrong[0].message
    # the right column scores fully and raises nothing
    rep_ok = evaluate(exported, [_rec(row, z_texts=[s["z_text"] for s in row["steps"]])])
    assert rep_ok.issues == [] and all(g.r_z == 1.0 for g in rep_ok.groups.values())


def test_chains_of_the_wrong_kind_are_reported(exported, exported_rows):
    row = exported_rows[0]
    rep = evaluate(exported, [_rec(row, cz_texts=[s["reasoning_visual"] for s in row["steps"]],
                                   cv_texts=[s["reasoning"] for s in row["steps"]])])
    msgs = [i.message for i in rep.issues if i.kind == "wrong_kind"]
    assert len(msgs) == 2 and any("cv_texts" in m for m in msgs) and any("cz_texts" in m for m in msgs)


def test_old_keys_still_read_with_a_note(exported, exported_rows):
    old = [{"id": row["id"], "states": [s["z_text"] for s in row["steps"]], "reasoning": [s["reasoning"] for s in row["steps"]]}
           for row in exported_rows[:2]]
    rep = evaluate(exported, old)
    assert rep.issues == []
    assert all(g.r_z == 1.0 and g.r_c == 1.0 for g in rep.groups.values())
    assert len(rep.notes) == 2  # once per key, not per line
    assert any("'states' is deprecated" in n and "z_texts" in n for n in rep.notes)
    assert "Notes:" in rep.tables()
