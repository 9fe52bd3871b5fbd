package sandbox

import (
	"fmt"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
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
	return func(req *core.Request) (*core.Reply, error) {
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
			record.Power = core.Schedule{{To: action.settled, Due: req.Now.Add(s.core.ProvisionDelay())}}
		}

		return replyAccepted(nil), nil
	}
}

func (s *Sandbox) getServerSSHKey(req *core.Request) (*core.Reply, error) {
	record, err := s.lookupServer(req, opRead)
	if err != nil {
		return nil, err
	}

	key, found := core.Get[unikorn.SSHKey](req.Store, record.Server.Status.NetworkID)
	if !found {
		return nil, errServer()
	}

	return replyOK(key), nil
}

// lookupRealizedServer finds a server that exists in the cloud, which console access needs.
func (s *Sandbox) lookupRealizedServer(req *core.Request) (*serverRecord, error) {
	record, err := s.lookupServer(req, opRead)
	if err != nil {
		return nil, err
	}

	if record.Server.Status.PrivateIP == "" {
		return nil, errBadRequest("server console is not available in its current state")
	}

	return record, nil
}

func (s *Sandbox) getServerConsoleSession(req *core.Request) (*core.Reply, error) {
	record, err := s.lookupRealizedServer(req)
	if err != nil {
		return nil, err
	}

	return replyOK(unikorn.ConsoleSession{
		URL: fmt.Sprintf("%s/console/vnc_auto.html?path=%%3Ftoken%%3D%s", baseURL(req.Request), record.Server.Metadata.ID),
	}), nil
}

// getServerConsoleOutput returns the boot log, or its last `length` lines.
func (s *Sandbox) getServerConsoleOutput(req *core.Request) (*core.Reply, error) {
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
	if image, found := core.Get[unikorn.Image](w.st, server.Spec.ImageID); found {
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

// snapshotServer creates an image of the server, owned by its organization. It copies
// the server's image description and becomes ready after the provision delay.
func (s *Sandbox) snapshotServer(req *core.Request) (*core.Reply, error) {
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

	source, found := core.Get[unikorn.Image](req.Store, server.Spec.ImageID)
	if !found {
		return nil, errServer()
	}

	// The cloud makes the image, as the image family has it, in the server's
	// organization and region.
	image, err := core.Create(req.Store, &unikorn.Image{
		Metadata: unikorn.StaticMetadata{WriteMetadata: body.Metadata},
		Spec:     source.Spec,
	}, core.Placement{OrganizationID: server.Metadata.OrganizationID, RegionID: server.Status.RegionID}, req.Now)
	if err != nil {
		return nil, err
	}

	return replyCreated(image), nil
}
