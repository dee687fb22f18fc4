; Maze: the player moves one cell at a time; walls and the grid's edge block.
; Cells are objects c_<row>_<col>; (adj ?from ?dir ?to) exists only inside the grid.
(define (domain maze)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (wall ?c - cell)
    (goal ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action step
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (wall ?to)))
    :effect (and (not (at ?from)) (at ?to))
  )
)
