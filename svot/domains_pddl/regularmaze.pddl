; RegularMaze (RuleMaze): an N x N grid of cells with walls between neighbours.
; Cells are objects c_<row>_<col>. A passage between two neighbouring cells is the
; static (open ?from ?dir ?to), listed in both directions; a wall is its absence and
; the grid's edge has no passages, so a move into a wall or off the grid changes
; nothing. Cell colours are static facts (zone ?c ?colour) that no action reads:
; rules, not dynamics, give them meaning. The episode's goal is (at <red cell>).
(define (domain regularmaze)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction colour)
  (:predicates
    (open ?from - cell ?dir - direction ?to - cell)
    (zone ?c - cell ?col - colour)
    (goal ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action step
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (open ?from ?dir ?to))
    :effect (and (not (at ?from)) (at ?to))
  )
)
