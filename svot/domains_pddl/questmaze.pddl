; QuestMaze (RuleMaze): the RegularMaze grid (static (open ?from ?dir ?to) passages;
; walls and the grid's edge block) with items and two targets.
;
; STRIPS has no conditional effects, so the three outcomes of entering a cell are
; three operators, exactly one of which can apply to a given move:
;   walk     into a (free ?to) cell: nothing to collect, not a target;
;   collect  into a cell holding an item (item-at ?to ?i): the item is taken,
;            recorded as (collected ?to ?i), and the cell becomes free;
;   arrive   into a target's cell (target-at ?to ?t): sets (reached ?t) and (ended).
; Reaching a target ends the episode: every move needs (not (ended)). The goal of a
; problem is (ended), i.e. either target. Counts of collected items are read from
; the (collected ?c ?i) atoms.
(define (domain questmaze)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction item target)
  (:predicates
    (open ?from - cell ?dir - direction ?to - cell)
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
    :precondition (and (move ?dir) (not (ended)) (at ?from) (open ?from ?dir ?to) (free ?to))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action collect
    :parameters (?from - cell ?to - cell ?dir - direction ?i - item)
    :precondition (and (move ?dir) (not (ended)) (at ?from) (open ?from ?dir ?to) (item-at ?to ?i))
    :effect (and (not (at ?from)) (at ?to) (not (item-at ?to ?i)) (collected ?to ?i) (free ?to))
  )

  (:action arrive
    :parameters (?from - cell ?to - cell ?dir - direction ?t - target)
    :precondition (and (move ?dir) (not (ended)) (at ?from) (open ?from ?dir ?to) (target-at ?to ?t))
    :effect (and (not (at ?from)) (at ?to) (reached ?t) (ended))
  )
)
