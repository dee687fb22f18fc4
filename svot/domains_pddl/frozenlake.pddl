; FrozenLake, deterministic (not slippery). Entering a hole or the goal is final:
; the player cannot walk off a hole or off the goal tile, so both are absorbing.
(define (domain frozenlake)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (start ?c - cell)
    (hole ?c - cell)
    (goal ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action walk
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to)
                       (not (hole ?from)) (not (goal ?from)))
    :effect (and (not (at ?from)) (at ?to))
  )
)
