; Lamps, a toy domain that shows how to add one: the player walks a grid with
; no walls; stepping onto an unlit lamp lights it. Goal: every lamp lit.
(define (domain lamps)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (lamp ?c - cell)
    (lit ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  ; exactly one operator applies to any move: PDDLGym picks among several in set order
  (:action walk
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (lamp ?to)))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action light
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (lamp ?to))
    :effect (and (not (at ?from)) (at ?to) (lit ?to))
  )
)
