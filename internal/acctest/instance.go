package acctest

// WebInstance is the configuration of an instance called web on the environment's
// network, flavor and image: the one that snapshots, actions, consoles and keys are
// taken of.
func (e *Environment) WebInstance() string {
	return `
resource "unikorn_compute_instance" "web" {
  name       = "web"
  network_id = ` + Quote(e.NetworkID) + `
  flavor_id  = ` + Quote(e.FlavorID) + `
  image_id   = ` + Quote(e.ImageID) + `
}
`
}
