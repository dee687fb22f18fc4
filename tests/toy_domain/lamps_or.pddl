; Lamps again, with a disjunction in a precondition: beyond the compiled engine's
; STRIPS fragment, so svot steps it on PDDLGym (and logs why). The `or` is
; equivalent to (lamp ?to), so the dynamics are exactly those of lamps.pddl; its
; two branches exclude each other, since PDDLGym counts a binding proved twice
; as two (a "nondeterministic env").
(define (domain lampsor)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions)
  (:types cell direction)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (lamp ?c - cell)
    (lit ?c - cell)
    (at ?c - cell)
    (move ?dir - direction)
  )

  ; (:actions move)

  (:action walk
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (lamp ?to)))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action light
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to)
                       (or (and (lamp ?to) (lit ?to)) (and (lamp ?to) (not (lit ?to)))))
    :effect (and (not (at ?from)) (at ?to) (lit ?to))
  )
)
