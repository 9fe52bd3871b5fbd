// Package faults proves that the provider converges whatever single request fails,
// on each instance back end (instance_api "compute" and "region", each failing the
// requests it makes): its tests drive an instance through create, update and delete
// with the real Terraform CLI while the sandbox fails one request at a time (500, 503, 429, a
// dropped connection, an answer slower than the provider's request timeout), re-run
// each failed command until it succeeds, and then require that nothing leaked: no
// quota allocation and no server without an instance in state, and a state that
// agrees with the cloud.
//
// `go test` (and `make test`) runs every request with one kind of fault each, and a
// short randomized run; UNIKORN_FAULTS=full (`make faults`) runs every kind of fault
// at every request and a randomized run of 200 iterations, and with
// UNIKORN_FAULTS_REPORT names the Markdown file that records its counts, in a
// section per back end.
package faults
