package compute

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
)

// isLabelValue is the Kubernetes label value rule written out by hand, as an oracle
// for the regular expression that implements it.
func isLabelValue(s string) bool {
	alphanumeric := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

	if len(s) < 1 || len(s) > 63 || !alphanumeric(s[0]) || !alphanumeric(s[len(s)-1]) {
		return false
	}

	for i := range len(s) {
		if c := s[i]; !alphanumeric(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}

	return true
}

func FuzzValidateName(f *testing.F) {
	for _, seed := range []string{"web-1", "", "-web", "web.", "a", strings.Repeat("a", 63), strings.Repeat("a", 64), "wéb", "web\n", "a_b.c-d"} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, name string) {
		err := ValidateName(name)
		if valid := isLabelValue(name); valid != (err == nil) {
			t.Fatalf("ValidateName(%q) = %v, but the label rule says valid = %v", name, err, valid)
		}

		if imageErr := image.ValidateName(name); (imageErr == nil) != (err == nil) {
			t.Fatalf("instance and image names differ on %q: %v, %v", name, err, imageErr)
		}
	})
}

func FuzzValidateTagName(f *testing.F) {
	for _, seed := range []string{"team", "", "unikorn-cloud.org", "compute.unikorn-cloud.org/instance-id",
		"compute.unikorn-cloud.org:instance-id", "x.unikorn-cloud.org", "unikorn-cloud.org.evil", "a/b.unikorn-cloud.org"} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, name string) {
		err := ValidateTagName(name)
		if (err == nil) != (name != "" && !cloud.IsReservedTag(name)) {
			t.Fatalf("ValidateTagName(%q) = %v, IsReservedTag = %v", name, err, cloud.IsReservedTag(name))
		}

		// Only the domain, before the first '/' or ':', decides.
		domain := name
		if i := strings.IndexAny(name, "/:"); i >= 0 {
			domain = name[:i]
		}

		if cloud.IsReservedTag(name) != cloud.IsReservedTag(domain) {
			t.Fatalf("%q and its domain %q disagree", name, domain)
		}

		if domain == name && !cloud.IsReservedTag(name+"."+cloud.ReservedTagDomain) {
			t.Fatalf("%q under the reserved domain is not reserved", name)
		}
	})
}

func FuzzValidateCIDR(f *testing.F) {
	for _, seed := range []string{"10.0.0.0/24", "10.0.0.1/24", "0.0.0.0/0", "255.255.255.255/32", "::/0", "10.0.0.0",
		"10.0.0.0/33", "010.0.0.0/8", "10.0.0.0/08", " 10.0.0.0/24", "10.0.0.0/24 ", "::ffff:10.0.0.0/120"} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, value string) {
		if ValidateCIDR(value) != nil {
			return
		}

		prefix, err := netip.ParsePrefix(value)
		if err != nil || !prefix.Addr().Is4() || prefix.Masked() != prefix {
			t.Fatalf("ValidateCIDR accepted %q, which is not a masked IPv4 prefix", value)
		}

		// What is accepted is what region will give back: anything else would show
		// as a change at every plan.
		if prefix.String() != value {
			t.Fatalf("ValidateCIDR accepted %q, which region would write as %q", value, prefix.String())
		}
	})
}

func FuzzIsCloudInit(f *testing.F) {
	for _, seed := range []string{"#cloud-config\nusers: []", "#!/bin/sh\necho hi", "\ufeff#cloud-config", "echo hi", "",
		"Content-Type: multipart/mixed; boundary=x", "\x1f\x8b\x08", "#include\nhttp://x", "#"} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, userData string) {
		recognised := IsCloudInit(userData)

		if IsCloudInit("\ufeff"+userData) != recognised {
			t.Fatalf("a byte order mark changes the verdict on %q", userData)
		}

		if recognised && !IsCloudInit(userData+"\nmore") {
			t.Fatalf("%q is cloud-init but stops being so when it goes on", userData)
		}
	})
}
