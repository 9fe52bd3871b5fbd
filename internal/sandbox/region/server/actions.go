package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

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
func (h *handlers) power(action powerAction) core.Handler {
	return func(req *core.Request) (*core.Reply, error) {
		r, err := h.lookup(req, core.OpRead)
		if err != nil {
			return nil, err
		}

		server := &r.Server

		if server.Metadata.ProvisioningStatus != unikorn.ProvisioningProvisioned || !slices.Contains(action.from, server.Status.PowerState) {
			return nil, core.BadRequest("server cannot be %s in its current state", action.verb)
		}

		if action.immediate != "" {
			server.Status.PowerState = action.immediate
			r.Power = core.Schedule{{To: action.settled, Due: req.Now.Add(h.s.ProvisionDelay())}}
		}

		return core.Accepted(nil), nil
	}
}

func (h *handlers) sshKey(req *core.Request) (*core.Reply, error) {
	r, err := h.lookup(req, core.OpRead)
	if err != nil {
		return nil, err
	}

	key, found := core.Get[unikorn.SSHKey](req.Store, r.Server.Status.NetworkID)
	if !found {
		return nil, core.ServerError()
	}

	return core.OK(key), nil
}

// lookupRealized finds a server that exists in the cloud, which console access needs.
func (h *handlers) lookupRealized(req *core.Request) (*record, error) {
	r, err := h.lookup(req, core.OpRead)
	if err != nil {
		return nil, err
	}

	if r.Server.Status.PrivateIP == "" {
		return nil, core.BadRequest("server console is not available in its current state")
	}

	return r, nil
}

func (h *handlers) consoleSession(req *core.Request) (*core.Reply, error) {
	r, err := h.lookupRealized(req)
	if err != nil {
		return nil, err
	}

	return core.OK(unikorn.ConsoleSession{
		URL: fmt.Sprintf("%s/console/vnc_auto.html?path=%%3Ftoken%%3D%s", core.BaseURL(req.Request), r.Server.Metadata.ID),
	}), nil
}

// consoleOutput returns the boot log, or its last `length` lines.
func (h *handlers) consoleOutput(req *core.Request) (*core.Reply, error) {
	length := 0

	if value := req.URL.Query().Get("length"); value != "" {
		n, err := strconv.Atoi(value)
		if err != nil {
			return nil, core.BadRequest("parameter \"length\" in query has an error: value %q is not an integer", value)
		}

		length = n
	}

	r, err := h.lookupRealized(req)
	if err != nil {
		return nil, err
	}

	lines := bootLog(req.Store, &r.Server)
	if length > 0 && length < len(lines) {
		lines = lines[len(lines)-length:]
	}

	return core.OK(unikorn.ConsoleOutput{Contents: strings.Join(lines, "\n")}), nil
}

// bootLog is a server's console: a deterministic Linux and cloud-init boot.
func bootLog(st *core.Store, server *unikorn.Server) []string {
	system := "Linux"
	if image, found := core.Get[unikorn.Image](st, server.Spec.ImageID); found {
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

// snapshot creates an image of the server, owned by its organization. It copies
// the server's image description and becomes ready after the provision delay.
func (h *handlers) snapshot(req *core.Request) (*core.Reply, error) {
	var body unikorn.SnapshotCreate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith("spec")...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	r, err := h.lookup(req, core.OpRead)
	if err != nil {
		return nil, err
	}

	server := &r.Server

	if server.Metadata.ProvisioningStatus != unikorn.ProvisioningProvisioned {
		return nil, core.BadRequest("server cannot be snapshotted in its current state")
	}

	source, found := core.Get[unikorn.Image](req.Store, server.Spec.ImageID)
	if !found {
		return nil, core.ServerError()
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

	return core.Created(image), nil
}
