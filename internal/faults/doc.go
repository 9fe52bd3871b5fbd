// Package faults proves that the provider converges whatever single request fails,
// for each subject: an instance on each instance back end (instance_api "compute"
// and "region"), a load balancer, file storage, a block volume (renamed in place),
// identity's stack (a group, a project, a service account whose token is sealed in
// state, and a user in the group, suspended in place), an image imported from a URL (replaced by the update, which
// asks for it), and a Kubernetes cluster (its pools resized and added in place), each
// failing the requests its own life makes. Its tests drive
// the subject through create, update and delete with the real Terraform CLI while
// the sandbox fails one request at a time (500, 503, 429, a dropped connection, an
// answer slower than the provider's request timeout, or an answer lost after the
// sandbox acted), re-run each failed command until it succeeds, and then require
// that nothing leaked: no quota allocation, server, load balancer, file storage,
// volume, project, group, service account, user, image or cluster beyond what state
// holds, nothing replaced but by a configuration that asks for it, a sealed token that is the
// account's current one, and a state that agrees with the cloud.
//
// `go test` (and `make test`) runs every request with one kind of fault each, and a
// short randomized run; UNIKORN_FAULTS=full (`make faults`) runs every kind of fault
// at every request and a randomized run of 200 iterations, and with
// UNIKORN_FAULTS_REPORT names the Markdown file that records its counts, in a
// section per subject.
package faults
