-- docs/heap-example.md, section 5: 20,000 rows with a 40-character key
-- in no particular order, then an index on the key, as an import
-- followed by CREATE INDEX does it.  The keys are computed, not random,
-- so that every run allocates the same.
create table t(a, b);
insert into t select value, printf('%040d', value * 7919 % 20011)
  from generate_series(1, 20000);
create index i on t(b);
