; Pacman: no walls; entering a coin's cell eats the coin, recorded as (eaten ?c).
(define (domain pacman)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (coin ?c - cell)
    (eaten ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action walk
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (coin ?to)))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action eat
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (coin ?to))
    :effect (and (not (at ?from)) (at ?to) (not (coin ?to)) (eaten ?to))
  )
)
