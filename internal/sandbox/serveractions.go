package sandbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// powerAction is one of the power verbs: which power states allow it, the state it
// enters at once, and the state the cloud settles in after the provision delay.
type powerAction struct {
	// verb completes "server cannot be <verb> in its current state".
	verb      string
	from      []string
	immediate string
	settled   string
}

var (
	startAction = powerAction{verb: "started", from: []string{unikorn.PowerStopped},
		immediate: unikorn.PowerPending, settled: unikorn.PowerRunning}
	stopAction = powerAction{verb: "stopped", from: []string{unikorn.PowerRunning, unikorn.PowerPending},
		immediate: unikorn.PowerStopping, settled: unikorn.PowerStopped}
	// Reboots leave the stored phase alone: the server is Running before and after.
	rebootAction = powerAction{verb: "rebooted", from: []string{unikorn.PowerRunning}}
)

// power returns the handler of a power verb. Only a provisioned server that is not
// being deleted can change power state, and only from the states the verb allows.
func (s *Sandbox) power(action powerAction) apiHandler {
	return func(req *request) (*reply, error) {
		record, err := s.lookupServer(req, opRead)
		if err != nil {
			return nil, err
		}

		server := &record.Server

		if server.Metadata.ProvisioningStatus != unikorn.ProvisioningProvisioned || !slices.Contains(action.from, server.Status.PowerState) {
			return nil, errBadRequest("server cannot be %s in its current state", action.verb)
		}

		if action.immediate != "" {
			server.Status.PowerState = action.immediate
			record.Power = schedule{{To: action.settled, Due: req.now.Add(s.provisionDelay)}}
		}

		return replyAccepted(nil), nil
	}
}

func (s *Sandbox) getServerSSHKey(req *request) (*reply, error) {
	record, err := s.lookupServer(req, opRead)
	if err != nil {
		return nil, err
	}

	network, found := s.world.Networks[record.Server.Status.NetworkID]
	if !found || network.PrivateKey == "" {
		return nil, errServer()
	}

	return replyOK(unikorn.SSHKey{PrivateKey: network.PrivateKey}), nil
}

// lookupRealizedServer finds a server that exists in the cloud, which console access needs.
func (s *Sandbox) lookupRealizedServer(req *request) (*serverRecord, error) {
	record, err := s.lookupServer(req, opRead)
	if err != nil {
		return nil, err
	}

	if record.Server.Status.PrivateIP == "" {
		return nil, errBadRequest("server console is not available in its current state")
	}

	return record, nil
}

func (s *Sandbox) getServerConsoleSession(req *request) (*reply, error) {
	record, err := s.lookupRealizedServer(req)
	if err != nil {
		return nil, err
	}

	return replyOK(unikorn.ConsoleSession{
		URL: fmt.Sprintf("%s/console/vnc_auto.html?path=%%3Ftoken%%3D%s", baseURL(req.Request), record.Server.Metadata.ID),
	}), nil
}

// getServerConsoleOutput returns the boot log, or its last `length` lines.
func (s *Sandbox) getServerConsoleOutput(req *request) (*reply, error) {
	length := 0

	if value := req.URL.Query().Get("length"); value != "" {
		n, err := strconv.Atoi(value)
		if err != nil {
			return nil, errBadRequest("parameter \"length\" in query has an error: value %q is not an integer", value)
		}

		length = n
	}

	record, err := s.lookupRealizedServer(req)
	if err != nil {
		return nil, err
	}

	lines := s.world.bootLog(&record.Server)
	if length > 0 && length < len(lines) {
		lines = lines[len(lines)-length:]
	}

	return replyOK(unikorn.ConsoleOutput{Contents: strings.Join(lines, "\n")}), nil
}

// bootLog is a server's console: a deterministic Linux and cloud-init boot.
func (w *world) bootLog(server *unikorn.Server) []string {
	system := "Linux"
	if image, _, found := w.findImage(server.Spec.ImageID); found {
		system = image.Spec.OS.Distro + " " + image.Spec.OS.Version
	}

	name, status := server.Metadata.Name, server.Status

	return []string{
		"[    0.000000] Linux version 6.8.0-sandbox (buildd@sandbox) (gcc 13.2.0) #1 SMP PREEMPT_DYNAMIC",
		"[    0.000000] Command line: BOOT_IMAGE=/vmlinuz root=LABEL=cloudimg-rootfs ro console=tty1 console=ttyS0",
		"[    0.004000] Hypervisor detected: KVM",
		fmt.Sprintf("[    0.912000] virtio_net virtio0 eth0: MAC %s", status.MACAddress),
		"[    1.204000] EXT4-fs (vda1): mounted filesystem with ordered data mode",
		fmt.Sprintf("[    2.018000] systemd[1]: Set hostname to <%s>.", name),
		"[    3.100000] cloud-init[612]: Cloud-init v. 24.1 running 'init-local'",
		"[    4.220000] cloud-init[701]: Cloud-init v. 24.1 running 'init'",
		fmt.Sprintf("[    4.230000] cloud-init[701]: ci-info: | eth0 | True | %s | 255.255.255.0 | global | %s |", status.PrivateIP, status.MACAddress),
		"[    5.540000] cloud-init[812]: Cloud-init v. 24.1 running 'modules:config'",
		"[    6.310000] cloud-init[845]: Cloud-init v. 24.1 running 'modules:final'",
		"[    6.420000] cloud-init[845]: Cloud-init v. 24.1 finished. Datasource DataSourceOpenStackLocal.",
		"",
		fmt.Sprintf("%s %s ttyS0", system, name),
		"",
		fmt.Sprintf("%s login: ", name),
	}
}

// Reserved image tags that region stamps on images it creates.
const (
	imageSourceTag       = "images.unikorn-cloud.org:source"
	imageOrganizationTag = "images.unikorn-cloud.org:organization-id"
	reservedImagePrefix  = "images.unikorn-cloud.org:"
)

// snapshotServer creates an image of the server, owned by its organization. It copies
// the server's image description and becomes ready after the provision delay.
func (s *Sandbox) snapshotServer(req *request) (*reply, error) {
	var body unikorn.SnapshotCreate
	if err := decodeBody(req.Request, &body, requiredWith("spec")...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	record, err := s.lookupServer(req, opRead)
	if err != nil {
		return nil, err
	}

	server := &record.Server

	if server.Metadata.ProvisioningStatus != unikorn.ProvisioningProvisioned {
		return nil, errBadRequest("server cannot be snapshotted in its current state")
	}

	source, _, found := s.world.findImage(server.Spec.ImageID)
	if !found {
		return nil, errServer()
	}

	organizationID := server.Metadata.OrganizationID

	// Caller tags are kept, except that only region may say where an image came from
	// and whose it is.
	tags := unikorn.Tags{}

	for _, tag := range body.Metadata.Tags {
		if !strings.HasPrefix(tag.Name, reservedImagePrefix) {
			tags = append(tags, tag)
		}
	}

	tags = append(tags,
		unikorn.Tag{Name: imageSourceTag, Value: "snapshot"},
		unikorn.Tag{Name: imageOrganizationTag, Value: organizationID})

	// Image tags are returned sorted by name.
	slices.SortStableFunc(tags, func(a, b unikorn.Tag) int { return strings.Compare(a.Name, b.Name) })

	write := body.Metadata
	write.Tags = tags
	// Region keeps no description of an image, a snapshot's neither
	// (pkg/handler/server client_v2_snapshot.go copies the name and tags alone).
	write.Description = ""

	image := &imageRecord{
		Image: unikorn.Image{
			Metadata: newReadMetadata(newResourceID(), write, req.now).StaticMetadata,
			Spec:     source.Spec,
			Status:   unikorn.ImageStatus{State: unikorn.ImagePending},
		},
		OrganizationID: organizationID,
		RegionID:       server.Status.RegionID,
		Lifecycle:      importSchedule(req.now, s.provisionDelay, unikorn.ImageReady),
	}

	s.world.Images[image.Image.Metadata.ID] = image

	return replyCreated(image.Image), nil
}
