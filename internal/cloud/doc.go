// Package cloud is what every family of the façade shares: one Session per provider
// process (the API client, the poll grid its waits share, the read lag), the waits
// that ride out transient failures, the rule that a 404 is definite only past the
// read lag, and Object, the life of an asynchronous object that region or identity
// provisions: read, create once and adopt a create whose answer was lost, wait until
// provisioned, and delete patiently until a definite 404.
//
// Each family of things (compute for instances, networking, loadbalancing, storage,
// identity) is a package of its own on top of it that knows its own rules; this one
// knows none of them, and nothing of Terraform.
package cloud
