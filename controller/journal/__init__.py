"""The deal journal (docs/JOURNAL.md): `store.py` the append-only, hash-chained SQLite store;
`file.py` its file (schema, creation, refusals); `verify.py` the chain and anchor checks;
`records.py` record kinds, sources, canonical JSON and typed payloads; `payloads.py` the
judge's moves, seats, walls and ledgers as payloads and back; `inputs.py` the `hw.batch`
codec of device inputs; `summary.py` per-deal summaries. It imports `rules`, the clock, the
error root and the device events, nothing of the daemon."""
