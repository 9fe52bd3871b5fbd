package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// stateVersion is bumped whenever the saved form of world changes incompatibly.
const stateVersion = 3

// world is everything a user can change: what -state saves and loads. The catalogue
// (organizations, regions, flavors, global images, roles) is fixed and lives in
// fixtures.go, so a state file never pins an old catalogue.
type world struct {
	Version                   int                                         `json:"version"`
	Networks                  map[string]*networkRecord                   `json:"networks"`
	SecurityGroups            map[string]*securityGroupRecord             `json:"securityGroups"`
	SSHCertificateAuthorities map[string]*unikorn.SSHCertificateAuthority `json:"sshCertificateAuthorities"`
	Servers                   map[string]*serverRecord                    `json:"servers"`
	LoadBalancers             map[string]*loadBalancerRecord              `json:"loadBalancers"`
	Images                    map[string]*imageRecord                     `json:"images"`
	Allocations               map[string]*unikorn.Allocation              `json:"allocations"`
	FileStorage               map[string]*fileStorageRecord               `json:"fileStorage"`
	Projects                  map[string]*projectRecord                   `json:"projects"`
	Groups                    map[string]*unikorn.Group                   `json:"groups"`
	ServiceAccounts           map[string]*serviceAccountRecord            `json:"serviceAccounts"`
	// Organizations are the fixture organizations as updates left them.
	Organizations map[string]*unikorn.Organization `json:"organizations"`
	// Users are identity's global users, OrganizationUsers their memberships of
	// organizations, by ID.
	Users             map[string]*userRecord             `json:"users"`
	OrganizationUsers map[string]*organizationUserRecord `json:"organizationUsers"`
	// Quotas maps organization ID to kind to quantity.
	Quotas map[string]map[string]int `json:"quotas"`
	// OAuth2Providers are the organizations' own OAuth2 providers.
	OAuth2Providers map[string]*oauth2Provider `json:"oauth2Providers"`
	// Compute is the compute service's own records, which it keeps and encodes itself.
	Compute json.RawMessage `json:"compute,omitempty"`
	// MACSequence numbers every MAC handed out, so that a recreated server visibly
	// gets a new one.
	MACSequence uint32 `json:"macSequence"`
	// NextPublicHost is the next-fit cursor of public address allocation.
	NextPublicHost uint32 `json:"nextPublicHost"`
}

type networkRecord struct {
	Network   unikorn.Network `json:"network"`
	Lifecycle schedule        `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the network to the quota.
	AllocationID string `json:"allocationId"`
	// PrivateKey is the network's cloud identity key pair (OpenSSH PEM), which every
	// server on the network shares.
	PrivateKey string `json:"privateKey"`
	// NextHost is the next-fit cursor of private address allocation.
	NextHost uint32 `json:"nextHost"`
}

type securityGroupRecord struct {
	SecurityGroup unikorn.SecurityGroup `json:"securityGroup"`
	Lifecycle     schedule              `json:"lifecycle,omitempty"`
}

type serverRecord struct {
	Server    unikorn.Server `json:"server"`
	Lifecycle schedule       `json:"lifecycle,omitempty"`
	// Power is the pending power transition (Stopping → Stopped, Pending → Running).
	Power schedule `json:"power,omitempty"`
	// Rebuild says the provisioning in progress recreates the cloud server, because
	// the flavor or image changed: disk and addresses are lost.
	Rebuild bool `json:"rebuild,omitempty"`
}

type loadBalancerRecord struct {
	LoadBalancer unikorn.LoadBalancer `json:"loadBalancer"`
	Lifecycle    schedule             `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the load balancer to the quota.
	AllocationID string `json:"allocationId"`
	// RequestedVIP is the virtual IP the create asked for; empty lets the network choose.
	RequestedVIP string `json:"requestedVip,omitempty"`
}

type imageRecord struct {
	Image unikorn.Image `json:"image"`
	// OrganizationID owns the image; global catalogue images have none.
	OrganizationID string `json:"organizationId,omitempty"`
	// RegionID is the region the image lives in (see inRegion).
	RegionID string `json:"regionId,omitempty"`
	// URI is where an imported image was imported from; empty for a snapshot.
	URI string `json:"uri,omitempty"`
	// SizeGiB is the size the image shows once the cloud has made it; zero keeps the
	// size it has.
	SizeGiB int `json:"sizeGiB,omitempty"`
	// Deleted says the image is deleted: it shows failed until it is gone.
	Deleted   bool     `json:"deleted,omitempty"`
	Lifecycle schedule `json:"lifecycle,omitempty"`
}

func newWorld() *world {
	return &world{
		Version:                   stateVersion,
		Networks:                  map[string]*networkRecord{},
		SecurityGroups:            map[string]*securityGroupRecord{},
		SSHCertificateAuthorities: map[string]*unikorn.SSHCertificateAuthority{},
		Servers:                   map[string]*serverRecord{},
		LoadBalancers:             map[string]*loadBalancerRecord{},
		Images:                    map[string]*imageRecord{},
		Allocations:               map[string]*unikorn.Allocation{},
		FileStorage:               map[string]*fileStorageRecord{},
		OAuth2Providers:           map[string]*oauth2Provider{},
		Projects:                  map[string]*projectRecord{},
		Groups:                    map[string]*unikorn.Group{},
		ServiceAccounts:           map[string]*serviceAccountRecord{},
		Organizations:             map[string]*unikorn.Organization{},
		Users:                     map[string]*userRecord{},
		OrganizationUsers:         map[string]*organizationUserRecord{},
		Quotas:                    map[string]map[string]int{},
	}
}

// loadWorld reads a saved world; ok is false when the file does not exist.
func loadWorld(path string) (w *world, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}

	if err != nil {
		return nil, false, fmt.Errorf("reading sandbox state: %w", err)
	}

	w = newWorld()
	if err := json.Unmarshal(data, w); err != nil {
		return nil, false, fmt.Errorf("decoding sandbox state %s: %w", path, err)
	}

	// Version 1 kept no projects, groups or service accounts: the projects were a
	// fixed catalogue then, so they are the fixtures.
	if w.Version == 1 {
		w.addIdentityFixtures()
		w.Version = stateVersion
	}

	// Version 2 kept no users and no organizations: groups named the fixture users by
	// their IDs alone, the empty organization's administrator by its user ID in the
	// fixture one.
	if w.Version == 2 {
		w.migrateUsers()
	}

	if w.Version != stateVersion {
		return nil, false, fmt.Errorf("sandbox state %s has version %d, this sandbox reads version %d", path, w.Version, stateVersion)
	}

	return w, true, nil
}

// save writes the world atomically: a reader, or a crash halfway, sees either the old
// file or the new one, never a torn mix.
func (w *world) save(path string) error {
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding sandbox state: %w", err)
	}

	temp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving sandbox state: %w", err)
	}

	defer os.Remove(temp.Name())

	if _, err := temp.Write(append(data, '\n')); err != nil {
		temp.Close()

		return fmt.Errorf("saving sandbox state: %w", err)
	}

	if err := temp.Close(); err != nil {
		return fmt.Errorf("saving sandbox state: %w", err)
	}

	if err := os.Rename(temp.Name(), path); err != nil {
		return fmt.Errorf("saving sandbox state: %w", err)
	}

	return nil
}

// advance applies every transition that has fallen due by now and reports whether
// anything changed.
func (w *world) advance(now time.Time) bool {
	changed := false

	for id, record := range w.Servers {
		serverChanged, gone := w.advanceServer(record, now)
		if serverChanged {
			changed = true
		}

		if gone {
			delete(w.Servers, id)
		}
	}

	if w.advanceLoadBalancers(now) {
		changed = true
	}

	for id, record := range w.SecurityGroups {
		for _, to := range record.Lifecycle.due(now) {
			changed = true

			if applyProvisioning(&record.SecurityGroup.Metadata.ReadMetadata, to) {
				delete(w.SecurityGroups, id)
			}
		}
	}

	for id, record := range w.Networks {
		for _, to := range record.Lifecycle.due(now) {
			changed = true

			if applyProvisioning(&record.Network.Metadata.ReadMetadata, to) {
				// Region releases the network's quota once the network is gone.
				delete(w.Allocations, record.AllocationID)
				delete(w.Networks, id)
			}
		}
	}

	for id, record := range w.Images {
		for _, to := range record.Lifecycle.due(now) {
			changed = true

			switch to {
			case toGone:
				delete(w.Images, id)
			case unikorn.ImageReady:
				if record.SizeGiB > 0 {
					record.Image.Spec.SizeGiB = record.SizeGiB
				}

				fallthrough
			default:
				record.Image.Status.State = to
			}
		}
	}

	if w.advanceFileStorage(now) {
		changed = true
	}

	// Last: a project whose last holder went in this pass goes with it.
	if w.advanceProjects(now) {
		changed = true
	}

	return changed
}

// advanceServer applies a server's due provisioning and power transitions.
func (w *world) advanceServer(record *serverRecord, now time.Time) (changed, gone bool) {
	status := &record.Server.Status

	for _, to := range record.Lifecycle.due(now) {
		changed = true

		switch to {
		case toGone:
			return true, true
		case unikorn.ProvisioningProvisioning:
			if record.Rebuild {
				status.PrivateIP, status.PublicIP, status.MACAddress = "", "", ""
				status.PowerState = unikorn.PowerBuilding
			} else if status.PowerState == "" {
				status.PowerState = unikorn.PowerBuilding
			}
		case unikorn.ProvisioningProvisioned:
			w.realizeServer(record)
		}

		applyProvisioning(&record.Server.Metadata.ReadMetadata, to)
	}

	for _, to := range record.Power.due(now) {
		changed = true
		status.PowerState = to
	}

	return changed, false
}

// realizeServer is the cloud server coming up: it gets addresses it lacks, loses a
// public address it no longer asks for, and boots unless it was stopped.
func (w *world) realizeServer(record *serverRecord) {
	server := &record.Server
	record.Rebuild = false

	if server.Status.PrivateIP == "" {
		network := w.Networks[server.Status.NetworkID]
		server.Status.PrivateIP = w.allocatePrivateAddress(network)
		w.MACSequence++
		server.Status.MACAddress = macAddress(w.MACSequence)
	}

	wantsPublicIP := server.Spec.Networking != nil && server.Spec.Networking.PublicIP

	switch {
	case wantsPublicIP && server.Status.PublicIP == "":
		server.Status.PublicIP = w.allocatePublicAddress()
	case !wantsPublicIP:
		server.Status.PublicIP = ""
	}

	if server.Status.PowerState == "" || server.Status.PowerState == unikorn.PowerBuilding {
		server.Status.PowerState = unikorn.PowerRunning
	}
}
