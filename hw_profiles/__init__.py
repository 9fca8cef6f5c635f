"""Hardware described as data: table models (`tables/`), reader antenna zones (`readers/`)
and tag maps (`tags/`)."""
