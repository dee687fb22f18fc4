; QuestMaze on the open cell grid the RuleMaze paper draws (Fig. 3; §5: "cell-based
; layouts without complex wall structures"): an N x N field (5 x 5 for the paper's
; 3 x 3 logical maze) with no walls, where monster cells block. The prince starts on
; his cell; the princess and/or the treasure are the targets; keys, hearts and food
; lie on free cells.
;
; The grid is static (adjacent ?from ?dir ?to) for every pair of neighbouring cells
; (the edge of the grid is the only absence); a (monster ?c) cell can never be
; entered. As in questmaze.pddl, entering a cell has three outcomes, one operator
; each, exactly one applicable per move (STRIPS has no conditional effects):
;   walk     into a (free ?to) cell;
;   collect  into a cell holding an item (item-at ?to ?i): the item is taken,
;            recorded as (collected ?to ?i), and the cell becomes free;
;   arrive   into a target's cell (target-at ?to ?t): sets (reached ?t) and (ended).
; Every move needs (not (ended)): reaching a target ends the quest; the goal is (ended).
(define (domain questmaze5)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction item target)
  (:predicates
    (adjacent ?from - cell ?dir - direction ?to - cell)
    (monster ?c - cell)
    (target-at ?c - cell ?t - target)
    (free ?c - cell)
    (item-at ?c - cell ?i - item)
    (collected ?c - cell ?i - item)
    (reached ?t - target)
    (ended)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action walk
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (not (ended)) (at ?from) (adjacent ?from ?dir ?to)
                       (not (monster ?to)) (free ?to))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action collect
    :parameters (?from - cell ?to - cell ?dir - direction ?i - item)
    :precondition (and (move ?dir) (not (ended)) (at ?from) (adjacent ?from ?dir ?to)
                       (not (monster ?to)) (item-at ?to ?i))
    :effect (and (not (at ?from)) (at ?to) (not (item-at ?to ?i)) (collected ?to ?i) (free ?to))
  )

  (:action arrive
    :parameters (?from - cell ?to - cell ?dir - direction ?t - target)
    :precondition (and (move ?dir) (not (ended)) (at ?from) (adjacent ?from ?dir ?to)
                       (not (monster ?to)) (target-at ?to ?t))
    :effect (and (not (at ?from)) (at ?to) (reached ?t) (ended))
  )
)
