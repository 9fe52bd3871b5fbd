#!/bin/sh
# make test starts the programs that go test and go run build (the test binaries, the
# providers they serve and the CLIs those start, the runners of Unikorn's suites)
# through this, by -exec in GOFLAGS. They are many, their heaps small and their lives
# short, so at the collector's default pace (a collection each time the heap doubles,
# from 4 MB) much of their processor time goes to collecting. At GOGC=400 the
# snapshot package's acceptance tests took 16 to 23% less processor time (16.4 s
# against 12.6 to 13.7 s over three runs); its test binary peaked at 110 MB instead of
# 65, and no CLI went past 63 MB either way. The compilers are not started through this:
# they size their own heap, and a cold build of region took more processor time at
# GOGC=400 (531 s against 492). A GOGC already set is kept.
GOGC="${GOGC:-400}"
export GOGC
exec "$@"
