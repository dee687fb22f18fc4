; Gather: a move of k cells in one direction collects every ball on the k cells entered.
;
; STRIPS has no conditional effects, so one agent move is encoded as a short chain:
;   (move ?dir ?k)  start: needs (idle) and a cell k steps away inside the grid
;                   (the static (ray ?from ?dir ?k ?to)); sets (heading ?dir) and (dest ?to).
;   (advance)       one cell at a time towards (dest): `pass` on a cell without a ball,
;                   `collect` on a cell with one (the ball becomes (got ?c ?colour));
;                   `arrive` once the player stands on (dest) and restores (idle).
; While a move is under way only (advance) is applicable; the env applies it until
; (idle) holds again, so the agent sees one action. A move that would leave the grid
; has no ray and changes nothing.
(define (domain gather)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction distance colour)
  (:predicates
    (adj ?from - cell ?dir - direction ?to - cell)
    (ray ?from - cell ?dir - direction ?k - distance ?to - cell)
    (ball ?c - cell ?col - colour)
    (clear ?c - cell)
    (got ?c - cell ?col - colour)
    (at ?c - cell)
    (idle)
    (heading ?dir - direction)
    (dest ?c - cell)
    (move ?dir - direction ?k - distance)
    (advance)
  )

  ; (:actions move advance)

  (:action start
    :parameters (?from - cell ?to - cell ?dir - direction ?k - distance)
    :precondition (and (move ?dir ?k) (idle) (at ?from) (ray ?from ?dir ?k ?to))
    :effect (and (not (idle)) (heading ?dir) (dest ?to))
  )

  (:action pass
    :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (advance) (heading ?dir) (at ?from) (not (dest ?from))
                       (adj ?from ?dir ?to) (clear ?to))
    :effect (and (not (at ?from)) (at ?to))
  )

  (:action collect
    :parameters (?from - cell ?to - cell ?dir - direction ?col - colour)
    :precondition (and (advance) (heading ?dir) (at ?from) (not (dest ?from))
                       (adj ?from ?dir ?to) (ball ?to ?col))
    :effect (and (not (at ?from)) (at ?to) (not (ball ?to ?col)) (got ?to ?col) (clear ?to))
  )

  (:action arrive
    :parameters (?c - cell ?dir - direction)
    :precondition (and (advance) (heading ?dir) (at ?c) (dest ?c))
    :effect (and (not (heading ?dir)) (not (dest ?c)) (idle))
  )
)
