"""Club tournaments: players, rounds, pairings, results and standings for every game kind.

The package keeps pure logic apart from files and commands:

- :mod:`.model` - the tournament as data (players, rounds, games, results), read from and
  written to one JSON file with every field checked (a hostile file is refused, never trusted);
- :mod:`.berger` - round-robin rounds from the FIDE Berger tables;
- :mod:`.swiss` - Swiss rounds by score groups (no rematch, first-move balance, byes);
- :mod:`.trf` - FIDE TRF-2016 written and read (what bbpPairings and JaVaFo exchange);
- :mod:`.engine` - an outside pairing engine (bbpPairings) run on that TRF;
- :mod:`.standings` - standings per game kind, with each game's own points and tie-breaks;
- :mod:`.sheets` - CSV and printable HTML (round sheet, standings);
- :mod:`.store` - the file, written atomically beside the arbiter's journals;
- :mod:`.cli` - ``companion tournament ...``.
"""
