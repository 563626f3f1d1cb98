# The two commands: `make run` and `make test`. Everything they need is installed and started
# by the scripts they call.
.PHONY: run test build schema cluster cluster-test cluster-stop fuzz bench bench-http bench-pages bench-answers bench-answer-cost bench-capacity bench-leaderboard bench-live bench-offline bench-fsrs bench-import-adversarial db-stop clean

run:
	scripts/run.sh

test:
	scripts/test.sh

build:
	scripts/deps.sh
	swift build --explicit-target-dependency-import-check error

fuzz:
	scripts/fuzz.sh 60

# db/schema.sql: the schema as the migrations and db/ make it, dumped (commit it with the change).
schema:
	scripts/schema.sh

# A rehearsal of a real deployment on this machine (deploy/README.md): PostgreSQL with a
# synchronous replica, PgBouncer, three instances behind HAProxy, Redis with Sentinel.
cluster:
	deploy/cluster.sh start

# The same, under a mixed load while parts of it fail; stops everything at the end.
cluster-test:
	deploy/cluster.sh start
	python3 deploy/cluster_test.py; status=$$?; deploy/cluster.sh stop; exit $$status

cluster-stop:
	deploy/cluster.sh stop

bench:
	Benchmarks/all.sh

bench-http:
	Benchmarks/http.sh

bench-pages:
	Benchmarks/pages.sh

bench-answers:
	Benchmarks/answers.sh

bench-answer-cost:
	Benchmarks/answer-cost.sh

bench-capacity:
	Benchmarks/capacity.sh

bench-leaderboard:
	Benchmarks/leaderboard.sh

bench-live:
	Benchmarks/live.sh

bench-offline:
	Benchmarks/offline.sh

bench-fsrs:
	Benchmarks/fsrs.sh

bench-import-adversarial:
	Benchmarks/import-adversarial.sh

db-stop:
	scripts/pg.sh stop "$$(scripts/data-dir.sh)/dev-pg"
	scripts/redis.sh stop "$$(scripts/data-dir.sh)/dev-redis"

clean:
	swift package clean
