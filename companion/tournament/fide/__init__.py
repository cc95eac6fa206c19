"""FIDE rules for Swiss tournaments, on a neutral history (pure: no clock, no I/O but the
engines' own subprocess in :mod:`.engines`).

- :mod:`.history` - the neutral input (players, rounds, games, byes, scoring), the initial
  order and start numbers, and what the rules read of a history (slots, colours, floats);
- :mod:`.colours` - colour preferences and allocation (C.04.3 1.6-1.7, 5.2);
- :mod:`.criteria` - the Dutch criteria checked on a proposed round (C1-C6, 5.2, C10-C17);
- :mod:`.dutch` - the FIDE (Dutch) system through the pinned ``caissify-pairings`` engine,
  behind an adapter that builds its input, allocates colours and checks every answer;
- :mod:`.tiebreaks` - the tie-breaks of C.07;
- :mod:`.trf` - TRF-2016 written and read;
- :mod:`.engines` - bbpPairings and JaVaFo, when installed, run on that TRF.
"""
