package volumes

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Field names what a Problem is about, as the Terraform types name their attributes.
type Field string

// The fields a Problem can be about.
const (
	FieldNetworkID Field = "network_id"
	FieldClassID   Field = "volume_class_id"
	FieldSizeGiB   Field = "size_gib"
	// FieldVolumeIDs is an instance's volumes: the problem is with attaching VolumeID.
	FieldVolumeIDs Field = "volume_ids"
)

// Problem is a reason region or compute would refuse a volume or its attachment,
// found before anything is sent, with what to do about it. It is the error of a
// create refused before it was sent.
type Problem struct {
	Field Field
	// VolumeID names the volume an attachment problem is about.
	VolumeID string
	Summary  string
	Detail   string
	Remedy   string
}

func (p *Problem) Error() string {
	return p.Summary + ": " + p.Detail
}

// maxSizeGiB is the largest size region can hold in bytes (2^63-1 of them).
const maxSizeGiB = math.MaxInt64 >> 30

// CheckClass returns what region would refuse of a volume of classID and sizeGiB on a
// network: a network that does not exist or cannot be read, a class not of the
// network's region, a size outside the class's bounds, as region checks them in that
// order. With networkID empty (a network not known yet) only the size is judged, and
// only when every class of the ID the token sees would refuse it. A read that fails
// without an answer is the error.
func (s *Service) CheckClass(ctx context.Context, networkID, classID string, sizeGiB int64) (*Problem, error) {
	regionID := ""

	if networkID != "" {
		network, err := s.networking.SharedNetwork(ctx, networkID, time.Time{})

		switch {
		case unikorn.IsNotFound(err) || unikorn.IsForbidden(err):
			return &Problem{
				Field: FieldNetworkID, Summary: "Network not found",
				Detail: fmt.Sprintf("Network %s does not exist or cannot be read with these credentials, so region would "+
					"refuse a volume on it.", networkID),
				Remedy: "Check the network ID, and that the provider's token is a member of the network's project.",
			}, nil
		case err != nil:
			return nil, err
		}

		regionID = network.Status.RegionID
	}

	classes, err := s.Classes(ctx, "")
	if err != nil {
		return nil, err
	}

	if regionID == "" {
		return sizeEverywhere(classes, classID, sizeGiB), nil
	}

	return ClassProblem(classes, regionID, classID, sizeGiB), nil
}

// ClassProblem judges a volume of classID and sizeGiB in regionID against the classes
// the token sees, as region does: nil when region would take it.
func ClassProblem(classes []Class, regionID, classID string, sizeGiB int64) *Problem {
	var (
		match    *Class
		inRegion []string
		others   []string
	)

	for i := range classes {
		class := &classes[i]

		switch {
		case class.RegionID == regionID:
			inRegion = append(inRegion, class.describe())

			if class.ID == classID {
				match = class
			}
		case class.ID == classID:
			others = append(others, class.RegionID)
		}
	}

	switch {
	case match == nil && len(others) > 0:
		return &Problem{
			Field: FieldClassID, Summary: "Volume class of another region",
			Detail: fmt.Sprintf("Volume class %q is of region %s, but the network is in region %s: region makes a "+
				"volume only of a class of its network's region.", classID, strings.Join(others, ", "), regionID),
			Remedy: classRemedy(regionID, inRegion),
		}
	case match == nil:
		return &Problem{
			Field: FieldClassID, Summary: "Volume class not found",
			Detail: fmt.Sprintf("No volume class %q is visible to these credentials in region %s.", classID, regionID),
			Remedy: classRemedy(regionID, inRegion),
		}
	}

	return match.sizeProblem(sizeGiB)
}

// sizeProblem is what region would refuse of a volume of the class of sizeGiB.
func (c *Class) sizeProblem(sizeGiB int64) *Problem {
	problem := func(summary, detail string) *Problem {
		return &Problem{
			Field: FieldSizeGiB, Summary: summary, Detail: detail,
			Remedy: fmt.Sprintf("Choose a size_gib %s, or a volume class whose sizes include %d GiB "+
				"(the unikorn_volume_classes data source filters classes by size).", c.sizes(), sizeGiB),
		}
	}

	switch {
	case c.MinimumSizeGiB != nil && sizeGiB < *c.MinimumSizeGiB:
		return problem("Volume too small for its class",
			fmt.Sprintf("A volume of %d GiB is below the minimum of volume class %s, %d GiB.", sizeGiB, c.describe(), *c.MinimumSizeGiB))
	case c.MaximumSizeGiB != nil && sizeGiB > *c.MaximumSizeGiB:
		return problem("Volume too large for its class",
			fmt.Sprintf("A volume of %d GiB exceeds the maximum of volume class %s, %d GiB.", sizeGiB, c.describe(), *c.MaximumSizeGiB))
	case sizeGiB > maxSizeGiB:
		return problem("Volume too large", fmt.Sprintf("Region holds at most %d GiB in a volume.", int64(maxSizeGiB)))
	}

	return nil
}

// sizeEverywhere is the size problem every class of classID has, or nil when one of
// them (or none, for a class not seen) would take sizeGiB: which class is meant is
// known only with the region.
func sizeEverywhere(classes []Class, classID string, sizeGiB int64) *Problem {
	var found *Problem

	for i := range classes {
		if classes[i].ID != classID {
			continue
		}

		problem := classes[i].sizeProblem(sizeGiB)
		if problem == nil {
			return nil
		}

		found = problem
	}

	return found
}

// Supports reports whether the class's volumes may be attached to instances of the
// flavor. Compute refuses a class that names no flavor, though region's document
// reads none as no restriction: the provider follows compute, which decides.
func (c *Class) Supports(flavorID string) bool {
	return slices.Contains(c.SupportedFlavorIDs, flavorID)
}

// describe names the class in messages.
func (c *Class) describe() string {
	if c.Name == "" || c.Name == c.ID {
		return fmt.Sprintf("%q", c.ID)
	}

	return fmt.Sprintf("%s (%s)", c.Name, c.ID)
}

// sizes says which sizes the class takes.
func (c *Class) sizes() string {
	switch {
	case c.MinimumSizeGiB != nil && c.MaximumSizeGiB != nil:
		return fmt.Sprintf("from %d to %d GiB", *c.MinimumSizeGiB, *c.MaximumSizeGiB)
	case c.MinimumSizeGiB != nil:
		return fmt.Sprintf("of at least %d GiB", *c.MinimumSizeGiB)
	case c.MaximumSizeGiB != nil:
		return fmt.Sprintf("of at most %d GiB", *c.MaximumSizeGiB)
	}

	return fmt.Sprintf("of at most %d GiB", int64(maxSizeGiB))
}

func classRemedy(regionID string, inRegion []string) string {
	if len(inRegion) == 0 {
		return fmt.Sprintf("Region %s offers this token no volume class; check the network, whose region the volume takes.", regionID)
	}

	return fmt.Sprintf("Use a class of region %s: %s. The unikorn_volume_classes data source finds one by name, media or size.",
		regionID, strings.Join(inRegion, ", "))
}

// Takes reports whether region makes a volume of sizeGiB of the class.
func (c *Class) Takes(sizeGiB int64) bool {
	return c.sizeProblem(sizeGiB) == nil
}
