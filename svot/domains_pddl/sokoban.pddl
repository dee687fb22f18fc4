; Sokoban: the player walks into free cells and pushes a block one cell on
; when the cell beyond it is inside the grid, not a wall and not a block.
(define (domain sokoban)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (wall ?c - cell)
    (goal ?c - cell)
    (block ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action walk
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to)
                       (not (wall ?to)) (not (block ?to)))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action push
    :parameters (?from - cell ?to - cell ?beyond - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (adj ?to ?dir ?beyond)
                       (block ?to) (not (wall ?beyond)) (not (block ?beyond)))
    :effect (and (not (at ?from)) (at ?to) (not (block ?to)) (block ?beyond))
  )
)
