package compute

import (
	"context"
	"fmt"
	"strings"

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

// Progress receives human-readable updates while an operation waits.
type Progress func(message string)

// Power applies op and waits for the power state it leads to. It is idempotent:
// starting a running instance or stopping a stopped one succeeds without asking the
// cloud, and one already on its way there is only waited for.
func (s *Service) Power(ctx context.Context, ref Ref, op PowerOperation, progress Progress) (*Instance, error) {
	instance, err := s.Get(ctx, ref)
	if err != nil {
		return nil, err
	}

	if instance.ProvisioningStatus != unikorn.ProvisioningProvisioned {
		return nil, refused("instance %s is %s: power operations need a provisioned instance, so wait for it to finish provisioning",
			instance.ID, instance.ProvisioningStatus)
	}

	target, call, err := s.powerPlan(instance, op)
	if err != nil {
		return nil, err
	}

	if call == nil && instance.PowerState == target {
		return instance, nil
	}

	if call != nil {
		if err := call(ctx, instance.ServerID); err != nil {
			return nil, fmt.Errorf("asking the cloud to %s instance %s: %w", op, instance.ID, err)
		}

		progress(fmt.Sprintf("Asked the cloud to %s instance %s.", strings.ReplaceAll(string(op), "_", " "), instance.ID))
	}

	seen := instance.PowerState

	return s.waitServer(ctx, instance, "instance "+instance.ID+" to be "+target,
		func(candidate *Instance, _ *unikorn.Server) bool {
			if candidate.PowerState != seen {
				seen = candidate.PowerState
				progress(fmt.Sprintf("Instance %s is %s.", instance.ID, seen))
			}

			return candidate.PowerState == target
		})
}

// powerPlan decides which call op needs from the instance's state (none when it is
// already there or on its way) and which power state ends the wait.
func (s *Service) powerPlan(instance *Instance, op PowerOperation) (string, func(context.Context, string) error, error) {
	state := instance.PowerState

	switch op {
	case PowerStart:
		if state == PowerRunning || state == PowerPending {
			return PowerRunning, nil, nil
		}

		if state == PowerStopping {
			return "", nil, refused("instance %s is stopping: wait until it is stopped, then start it", instance.ID)
		}

		return PowerRunning, s.client.StartServer, nil
	case PowerStop:
		if state == PowerStopped || state == PowerStopping {
			return PowerStopped, nil, nil
		}

		if state == PowerPending {
			return "", nil, refused("instance %s is starting: wait until it is running, then stop it", instance.ID)
		}

		return PowerStopped, s.client.StopServer, nil
	case PowerReboot, PowerHardReboot:
		if state != PowerRunning {
			return "", nil, refused("instance %s is %s: only a running instance can be rebooted (start a stopped one instead)",
				instance.ID, strings.ToLower(state))
		}

		if op == PowerHardReboot {
			return PowerRunning, s.client.HardRebootServer, nil
		}

		return PowerRunning, s.client.SoftRebootServer, nil
	default:
		return "", nil, refused("unknown power operation %q: use one of %v", op, PowerOperations())
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
func (s *Service) Snapshot(ctx context.Context, ref Ref, request SnapshotRequest, progress Progress) (*unikorn.Image, error) {
	if err := ValidateImageName(request.Name); err != nil {
		return nil, &ValidationError{Problems: []Problem{{Field: FieldName, Summary: "Invalid image name", Detail: err.Error()}}}
	}

	instance, err := s.Get(ctx, ref)
	if err != nil {
		return nil, err
	}

	tags := map[string]string{}
	for name, value := range request.Tags {
		if !strings.HasPrefix(name, "compute.unikorn-cloud.org:") {
			tags[name] = value
		}
	}

	image, err := s.client.SnapshotServer(ctx, instance.ServerID, unikorn.SnapshotCreate{
		Metadata: unikorn.WriteMetadata{
			Name:        request.Name,
			Description: request.Description,
			Tags:        serverTags(tags, unikorn.Tag{Name: SnapshotInstanceIDTag, Value: instance.ID}),
		},
	})
	if err != nil {
		return nil, fmt.Errorf("snapshotting instance %s: %w", instance.ID, err)
	}

	s.catalogue.invalidate(imagesKey(instance.OrganizationID, instance.RegionID))
	progress(fmt.Sprintf("Snapshot image %s (%s) is %s.", image.Metadata.ID, image.Metadata.Name, image.Status.State))

	state := image.Status.State
	err = s.waitFor(ctx, "image "+image.Metadata.ID+" to be ready", func(ctx context.Context) (bool, error) {
		latest, err := s.client.GetImage(ctx, instance.OrganizationID, instance.RegionID, image.Metadata.ID)
		if unikorn.IsNotFound(err) {
			return false, nil
		}

		if err != nil {
			return false, &readError{err: err}
		}

		image = latest
		if image.Status.State != state {
			state = image.Status.State
			progress(fmt.Sprintf("Snapshot image %s is %s.", image.Metadata.ID, state))
		}

		if state == unikorn.ImageFailed {
			return false, &SnapshotFailedError{InstanceID: instance.ID, ImageID: image.Metadata.ID}
		}

		return state == unikorn.ImageReady, nil
	})
	if err != nil {
		return nil, err
	}

	return image, nil
}

// SnapshotTags returns the tags of a snapshot image that callers set, without the
// reserved ones Unikorn adds.
func SnapshotTags(image *unikorn.Image) map[string]string {
	tags := map[string]string{}
	for _, tag := range image.Metadata.Tags {
		if !IsReservedTag(tag.Name) {
			tags[tag.Name] = tag.Value
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
