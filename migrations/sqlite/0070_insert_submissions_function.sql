-- Issue 22: on PostgreSQL the submission batch becomes a function (planned once per connection).
-- Nothing here: SQLite's writer thread keeps its statements prepared. The number is taken so that
-- both stores count their migrations alike.
SELECT 1;
