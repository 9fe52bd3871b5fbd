package compute

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// PowerOperation is what a power action asks of an instance.
type PowerOperation string

// The power operations compute offers.
const (
	PowerStart      PowerOperation = "start"
	PowerStop       PowerOperation = "stop"
	PowerReboot     PowerOperation = "reboot"
	PowerHardReboot PowerOperation = "hard_reboot"
)

// PowerOperations lists every operation, in the order documentation shows them.
func PowerOperations() []PowerOperation {
	return []PowerOperation{PowerStart, PowerStop, PowerReboot, PowerHardReboot}
}

// Progress receives human-readable updates while an operation waits, as every
// family's long operations report them.
type Progress = cloud.Progress

// Power applies op and waits for the power state it leads to. It is idempotent:
// starting a running instance or stopping a stopped one succeeds without asking the
// cloud, and one already on its way there is only waited for.
func (s *Service) Power(ctx context.Context, ref Ref, op PowerOperation, progress Progress) (*Instance, error) {
	ctx = unikorn.Concerning(ctx, ref.ID)

	instance, err := s.Get(ctx, ref)
	if err != nil {
		return nil, err
	}

	return s.power(ctx, instance, op, progress, s.readServer, func(ctx context.Context, op PowerOperation) error {
		send := map[PowerOperation]func(context.Context, string) error{
			PowerStart: s.client.StartServer, PowerStop: s.client.StopServer,
			PowerReboot: s.client.SoftRebootServer, PowerHardReboot: s.client.HardRebootServer,
		}[op]

		return send(ctx, instance.ServerID)
	})
}

// power brings a read instance to the power state op leads to: it sends op through
// send when the instance is not there or on its way, then waits, reading with read.
func (s *Service) power(ctx context.Context, instance *Instance, op PowerOperation, progress Progress,
	read instanceReader, send func(context.Context, PowerOperation) error,
) (*Instance, error) {
	if instance.ProvisioningStatus != unikorn.ProvisioningProvisioned {
		return nil, refused("instance %s is %s: power operations need a provisioned instance, so wait for it to finish provisioning",
			instance.ID, instance.ProvisioningStatus)
	}

	target, needed, err := powerPlan(instance, op)
	if err != nil {
		return nil, err
	}

	if !needed && instance.PowerState == target {
		return instance, nil
	}

	if needed {
		if err := send(ctx, op); err != nil {
			return nil, fmt.Errorf("asking the cloud to %s instance %s: %w", op, instance.ID, err)
		}

		progress(fmt.Sprintf("Asked the cloud to %s instance %s.", strings.ReplaceAll(string(op), "_", " "), instance.ID))
	}

	seen := instance.PowerState

	return s.waitInstance(ctx, instance, "instance "+instance.ID+" to be "+target, cloud.Change{}, read,
		acceptedBy(func(candidate *Instance) bool {
			if candidate.PowerState != seen {
				seen = candidate.PowerState
				progress(fmt.Sprintf("Instance %s is %s.", instance.ID, seen))
			}

			return candidate.PowerState == target
		}))
}

// powerPlan decides from the instance's state whether op must be sent (not when the
// instance is already there or on its way) and which power state ends the wait.
func powerPlan(instance *Instance, op PowerOperation) (string, bool, error) {
	state := instance.PowerState

	switch op {
	case PowerStart:
		if state == PowerRunning || state == PowerPending {
			return PowerRunning, false, nil
		}

		if state == PowerStopping {
			return "", false, refused("instance %s is stopping: wait until it is stopped, then start it", instance.ID)
		}

		return PowerRunning, true, nil
	case PowerStop:
		if state == PowerStopped || state == PowerStopping {
			return PowerStopped, false, nil
		}

		if state == PowerPending {
			return "", false, refused("instance %s is starting: wait until it is running, then stop it", instance.ID)
		}

		return PowerStopped, true, nil
	case PowerReboot, PowerHardReboot:
		if state != PowerRunning {
			return "", false, refused("instance %s is %s: only a running instance can be rebooted (start a stopped one instead)",
				instance.ID, strings.ToLower(state))
		}

		return PowerRunning, true, nil
	default:
		return "", false, refused("unknown power operation %q: use one of %v", op, PowerOperations())
	}
}

// SnapshotRequest describes the image to make from an instance.
type SnapshotRequest struct {
	Name        string
	Description string
	Tags        map[string]string
}

// Snapshot makes an image of the instance's disk and waits until it is ready. The
// image carries the instance's ID in a reserved tag (its provenance), which callers
// cannot set or forge.
func (s *Service) Snapshot(ctx context.Context, ref Ref, request SnapshotRequest, progress Progress) (*image.Image, error) {
	ctx = unikorn.Concerning(ctx, ref.ID)

	if err := checkSnapshotRequest(request); err != nil {
		return nil, err
	}

	instance, err := s.Get(ctx, ref)
	if err != nil {
		return nil, err
	}

	made, err := s.client.SnapshotServer(ctx, instance.ServerID, unikorn.SnapshotCreate{
		Metadata: unikorn.WriteMetadata{
			Name:        request.Name,
			Description: request.Description,
			Tags:        serverTags(snapshotTags(request.Tags), unikorn.Tag{Name: SnapshotInstanceIDTag, Value: instance.ID}),
		},
	})
	if err != nil {
		return nil, fmt.Errorf("snapshotting instance %s: %w", instance.ID, err)
	}

	return s.waitSnapshot(ctx, instance, made, progress)
}

// waitSnapshot waits until the snapshot image of instance is ready, reporting its
// states; nil with any error, which leaves finding the image to whoever asked.
func (s *Service) waitSnapshot(ctx context.Context, instance *Instance, made *unikorn.Image, progress Progress) (*image.Image, error) {
	ready, err := s.images.WaitSnapshot(ctx, instance.ID, image.Ref{OrganizationID: instance.OrganizationID, RegionID: instance.RegionID},
		made, progress)
	if err != nil {
		return nil, err
	}

	return ready, nil
}

// SnapshotOf is the image family's snapshot of instance through instances, its back
// end: what it sends, and which of its failures were found before anything was sent.
func SnapshotOf(instances Instances, instance *Instance, request SnapshotRequest, progress Progress) image.Snapshot {
	return image.Snapshot{
		InstanceID: instance.ID, OrganizationID: instance.OrganizationID, RegionID: instance.RegionID, Name: request.Name,
		Make: func(ctx context.Context) (*image.Image, error) {
			return instances.Snapshot(ctx, instance.Ref(), request, progress)
		},
		Unsent: unsent,
	}
}

// unsent reports whether a failed snapshot was refused before anything was sent, so
// that it cannot have made an image.
func unsent(err error) bool {
	var (
		validation *ValidationError
		access     *AccessError
		rights     *ServiceRightsError
	)

	return errors.Is(err, ErrNotFound) || errors.As(err, &validation) || errors.As(err, &access) || errors.As(err, &rights)
}

// checkSnapshotRequest refuses an image name region would refuse.
func checkSnapshotRequest(request SnapshotRequest) error {
	if err := image.ValidateName(request.Name); err != nil {
		return &ValidationError{Problems: []Problem{{Field: FieldName, Summary: "Invalid image name", Detail: err.Error()}}}
	}

	return nil
}

// snapshotTags are the caller's tags for a snapshot image without any in compute's
// provenance prefix, which only compute may set (and compute drops them too).
func snapshotTags(requested map[string]string) map[string]string {
	tags := map[string]string{}
	for name, value := range requested {
		if !strings.HasPrefix(name, "compute.unikorn-cloud.org:") {
			tags[name] = value
		}
	}

	return tags
}

// SSHKey returns the private key that logs in to the instance, exactly as the cloud
// gives it.
func (s *Service) SSHKey(ctx context.Context, ref Ref) (string, error) {
	instance, err := s.Get(ctx, ref)
	if err != nil {
		return "", err
	}

	key, err := s.client.GetServerSSHKey(ctx, instance.ServerID)
	if err != nil {
		return "", fmt.Errorf("reading the SSH key of instance %s: %w", instance.ID, err)
	}

	return key.PrivateKey, nil
}

// ConsoleOutput returns the last lines of the instance's console (all when lines <= 0).
func (s *Service) ConsoleOutput(ctx context.Context, ref Ref, lines int) (string, error) {
	instance, err := s.Get(ctx, ref)
	if err != nil {
		return "", err
	}

	output, err := s.client.GetServerConsoleOutput(ctx, instance.ServerID, lines)
	if err != nil {
		return "", fmt.Errorf("reading the console of instance %s: %w", instance.ID, err)
	}

	return output.Contents, nil
}
