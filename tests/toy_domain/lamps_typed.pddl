; Lamps again, with its cells a subtype of "place": a type hierarchy, beyond the
; compiled engine (it binds parameters by exact type), so svot steps it on
; PDDLGym, whose CSP search knows subtypes (and logs why). Same dynamics as lamps.pddl.
(define (domain lampstyped)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell - place
          place direction - object)
  (:predicates
    (adj ?from - place ?dir - direction ?to - place)
    (lamp ?c - place)
    (lit ?c - place)
    (at ?c - place)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action walk
    :parameters (?from - place ?to - place ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (lamp ?to)))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action light
    :parameters (?from - place ?to - place ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (lamp ?to))
    :effect (and (not (at ?from)) (at ?to) (lit ?to))
  )
)
