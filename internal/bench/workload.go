package bench

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// The configurations the benchmark applies.
const (
	// WorkloadBare is instances with nothing but a flavor, an image and a fixture
	// network: the provider's own cost, nearest its bounds.
	WorkloadBare = "bare"
	// WorkloadRealistic is what users write: the network, two security groups, an SSH
	// certificate authority and file storage on the network made in the same
	// configuration; instances in both groups, trusting the authority, with tags, user
	// data that mounts the storage, and a public address on every tenth; and a load
	// balancer over them.
	WorkloadRealistic = "realistic"
	// WorkloadPeer is the small configuration module authors meet, shaped as the
	// incumbent providers' benchmarks are: peerInstances instances on compute's path,
	// all in one security group made beside them, with three tags each, applied and
	// destroyed back to back as `terraform test` does (see phases).
	WorkloadPeer = "peer"
)

// Workloads are every configuration the benchmark knows, in the order it runs them.
var Workloads = []string{WorkloadBare, WorkloadRealistic, WorkloadPeer}

// peerInstances is the peer configuration's one count, and peerSettle how long its
// second apply's objects are left to settle before it is destroyed again.
const (
	peerInstances = 20
	peerSettle    = 5 * time.Second
)

// Phase names, in the order they run.
const (
	PhasePlan    = "plan"
	PhaseApply   = "apply"
	PhaseTags    = "tag change"
	PhaseRefresh = "refresh"
	PhaseDestroy = "destroy"

	// The peer configuration's: a destroy right after the apply, as `terraform test`
	// runs it; an apply again; and, the objects left to settle, a destroy again.
	PhaseDestroyRightAfter = "destroy (right after the apply)"
	PhaseReapply           = "apply again"
	PhaseDestroySettled    = "destroy (settled)"
)

// instanceAddress starts the address of every instance the configurations make; the
// other resources' changes are not the instances' and are not timed.
const instanceAddress = "unikorn_compute_instance.bench["

// header is what every configuration starts with: where the provider comes from, and
// how many instances to make.
const header = `terraform {
  required_providers {
    unikorn = { source = "unikorn-cloud/unikorn" }
  }
}

variable "instances" {
  type = number
}

provider "unikorn" {}
`

// bareConfig is var.instances identical instances on the sandbox's default network.
func bareConfig() string {
	return header + instancesOnDefaultNetwork("")
}

// instancesOnDefaultNetwork is the block of var.instances instances on the sandbox's
// default network, with more arguments besides.
func instancesOnDefaultNetwork(more string) string {
	return fmt.Sprintf(`
resource "unikorn_compute_instance" "bench" {
  count      = var.instances
  name       = format("bench-%%03d", count.index)
  network_id = %q
  flavor_id  = %q
  image_id   = %q
%s}
`, sandbox.NetworkDefaultID, sandbox.FlavorStandardID, sandbox.ImageUbuntuID, more)
}

// peerConfig is the peer configuration: var.instances instances of the bare
// configuration, all in one security group on the same network, each with three
// tags. It reads nothing, so that the paced floor walks it as it is.
func peerConfig() string {
	return header + fmt.Sprintf(`
resource "unikorn_security_group" "peer" {
  name       = "peer"
  network_id = %q
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22, prefix = "192.0.2.0/24" }]
}
`, sandbox.NetworkDefaultID) + instancesOnDefaultNetwork(`
  security_group_ids = [unikorn_security_group.peer.id]

  tags = {
    role  = "peer"
    index = tostring(count.index)
    suite = "terraform-test"
  }
`)
}

// realisticConfig is var.instances instances as users configure them, with what they
// stand on made beside them. var.generation is a tag every instance carries, which the
// tag change moves on.
func realisticConfig() (string, error) {
	return realisticConfigFrom(storageSources{
		classes: fmt.Sprintf(`data "unikorn_file_storage_classes" "nfs" {
  region_id = %q
  protocol  = "nfsv4"
}

`, sandbox.RegionID),
		classID:     "data.unikorn_file_storage_classes.nfs.classes[0].id",
		mountSource: "unikorn_file_storage.shared.mounts[unikorn_network.bench.id].mount_source",
	})
}

// pacedFloorConfig is the realistic configuration for the paced floor provider (see
// runPacedFloor), which reads no data source and makes up what the cloud reports
// without knowing what it means: the storage class is written out as an ID a cloud
// would have given, and the instances mount a source named after the storage's ID,
// so that they still wait for the storage as they do for its mount.
func pacedFloorConfig() (string, error) {
	return realisticConfigFrom(storageSources{
		classID:     strconv.Quote(floorID("nfs")),
		mountSource: `format("%s.nfs.example.com:/shared", unikorn_file_storage.shared.id)`,
	})
}

// storageSources are where the realistic configuration's file storage takes its class
// from (a data source's block, if any, and the expression of the class's ID), and the
// expression its instances take their mount's source from.
type storageSources struct {
	classes, classID, mountSource string
}

// realisticConfigFrom is the realistic configuration, its storage's class and mount
// taken from sources.
func realisticConfigFrom(sources storageSources) (string, error) {
	key, err := authorityKey()
	if err != nil {
		return "", err
	}

	return header + fmt.Sprintf(`
variable "generation" {
  type    = string
  default = "1"
}

resource "unikorn_network" "bench" {
  name            = "bench"
  region_id       = %[1]q
  prefix          = "10.32.0.0/21"
  dns_nameservers = ["192.0.2.53"]
}

resource "unikorn_security_group" "ssh" {
  name       = "ssh"
  network_id = unikorn_network.bench.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22, prefix = "192.0.2.0/24" }]
}

resource "unikorn_security_group" "web" {
  name       = "web"
  network_id = unikorn_network.bench.id
  rules = [
    { direction = "ingress", protocol = "tcp", port = 80 },
    { direction = "ingress", protocol = "tcp", port = 443 },
  ]
}

resource "unikorn_ssh_certificate_authority" "ops" {
  name       = "ops"
  public_key = %[2]q
}

%[5]s# What every instance mounts, attached to the network beside the groups.
resource "unikorn_file_storage" "shared" {
  name             = "shared"
  region_id        = %[1]q
  storage_class_id = %[6]s
  size_gib         = 100
  attachments      = [unikorn_network.bench.id]
}

resource "unikorn_compute_instance" "bench" {
  count      = var.instances
  name       = format("bench-%%03d", count.index)
  network_id = unikorn_network.bench.id
  flavor_id  = %[3]q
  image_id   = %[4]q

  security_group_ids           = [unikorn_security_group.ssh.id, unikorn_security_group.web.id]
  ssh_certificate_authority_id = unikorn_ssh_certificate_authority.ops.id
  public_ip                    = count.index %% 10 == 0
  user_data                    = <<-CLOUD_CONFIG
    #cloud-config
    packages: [nginx, nfs-common]
    mounts:
      - ["${%[7]s}", /srv/shared, nfs, "vers=4"]
  CLOUD_CONFIG

  tags = {
    role       = "web"
    index      = tostring(count.index)
    generation = var.generation
  }
}

# The instances' public face, made once they exist.
resource "unikorn_load_balancer" "web" {
  name              = "web"
  network_id        = unikorn_network.bench.id
  public_ip_enabled = true

  listeners = {
    http = {
      protocol     = "tcp"
      port         = 80
      members      = [for instance in unikorn_compute_instance.bench : { address = instance.private_ip, port = 80 }]
      health_check = {}
    }
  }
}
`, sandbox.RegionID, key, sandbox.FlavorStandardID, sandbox.ImageUbuntuID, sources.classes, sources.classID, sources.mountSource), nil
}

// floorID is a made-up ID of the kind a cloud gives, for what the paced floor's
// configuration cannot read.
func floorID(name string) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://bench.invalid/"+name)).String()
}

// authorityKey is the public key of the realistic configuration's SSH certificate
// authority: always the same, so that every run applies the same configuration.
func authorityKey() (string, error) {
	public, ok := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey)
	if !ok {
		return "", fmt.Errorf("an ed25519 key has no ed25519 public key")
	}

	key, err := ssh.NewPublicKey(public)
	if err != nil {
		return "", err
	}

	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))), nil
}

// writeConfig writes the configuration of workload into dir.
func writeConfig(dir, workload string) error {
	config := bareConfig()

	switch workload {
	case WorkloadRealistic:
		var err error
		if config, err = realisticConfig(); err != nil {
			return err
		}
	case WorkloadPeer:
		config = peerConfig()
	}

	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600)
}

// phases are the Terraform commands of one count's life in workload, in order.
func phases(workload string, count, parallelism int) []benchPhase {
	vars := []string{"-input=false", "-var", "instances=" + strconv.Itoa(count), "-parallelism=" + strconv.Itoa(parallelism)}
	changed := vars

	if workload == WorkloadRealistic {
		changed = append(vars[:len(vars):len(vars)], "-var", "generation=2")
	}

	list := []benchPhase{
		// The plan is saved so that the apply measures the creation alone; together
		// they are what `terraform apply` does.
		{name: PhasePlan, args: append([]string{"plan", "-out=create.tfplan"}, vars...), changesNothing: true},
		{name: PhaseApply, args: []string{"apply", "-input=false", "-auto-approve", "-json", "-parallelism=" + strconv.Itoa(parallelism), "create.tfplan"}, action: "create"},
	}

	destroy := append([]string{"destroy", "-auto-approve", "-json"}, changed...)

	if workload == WorkloadPeer {
		// As `terraform test` runs a configuration: destroyed the moment its apply
		// ends, nothing between, its objects maybe still settling; then, so that the
		// two can be told apart, applied again and destroyed once they have settled.
		return append(list,
			benchPhase{name: PhaseDestroyRightAfter, args: destroy, action: "delete"},
			benchPhase{name: PhaseReapply, args: append([]string{"apply", "-auto-approve", "-json"}, vars...), action: "create"},
			benchPhase{name: PhaseDestroySettled, args: destroy, action: "delete", settle: peerSettle},
		)
	}

	if workload == WorkloadRealistic {
		// What a user does most once a configuration exists: change the tags of every
		// instance, planned and applied in one command.
		list = append(list, benchPhase{name: PhaseTags, args: append([]string{"apply", "-auto-approve", "-json"}, changed...), action: "update"})
	}

	return append(list,
		// A plan right after the apply must find nothing to change (exit code 0); what
		// it would create again or replace is counted as lost (exit code 2).
		benchPhase{name: PhaseRefresh, args: append([]string{"plan", "-detailed-exitcode", "-json"}, changed...), changesNothing: true},
		benchPhase{name: PhaseDestroy, args: destroy, action: "delete"},
	)
}
