"""Club tournaments: one signed record of the event, and everything drawn from it.

The package keeps pure logic apart from files, network and commands:

- :mod:`.model` - the tournament as a pure fold over its records (players, numbers, rounds,
  byes, results with their evidence, withdrawals, settings), every record checked;
- :mod:`.store` - the tournament file: a journal signed with the arbiter's key, read and checked
  as ``companion verify`` checks a table's journal, appended under a lock;
- :mod:`.outcome` - results as the arbiter types them, judged by each game's own rules;
- :mod:`.journals` - the one verified reader of the tables' journals (chain, signatures, final
  record, the game the tournament paired at that table);
- :mod:`.intake` - results into the file (from journals, the MQTT inbox, the arbiter's hand),
  a change only with a reason, audited;
- :mod:`.inbox` - the tables' journals arriving over MQTT, kept on the laptop, their results
  recorded;
- :mod:`.berger`, :mod:`.swiss`, :mod:`.pairing`, :mod:`.engine` - the next round (Berger
  tables, the built-in Swiss, bbpPairings on the TRF);
- :mod:`.standings` - the one standings: points, then the tie-breaks;
- :mod:`.sheets`, :mod:`.trf` - CSV (formula cells neutralised), printable HTML, TRF-2016;
- :mod:`.history` - the audit trail and the file's check;
- :mod:`.desk` - the tournaments on the arbiter's page; :mod:`.send` - pairings to the tables;
- :mod:`.upgrade` - a version 1 file into the signed one; :mod:`.correct` - a correction
  appended to a finished game's journal;
- :mod:`.cli` - ``companion tournament ...``; :mod:`.demo` - the club evening on one machine.
"""
