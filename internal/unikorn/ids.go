package unikorn

import (
	"fmt"
	"unicode"

	"github.com/google/uuid"
)

// DeriveServerID returns the deterministic ID that region gives a server (and compute
// an instance) called name on the given network: UUIDv5 in the network's namespace,
// re-hashed over its own raw bytes until its string form starts with a letter, because
// Unikorn IDs double as Kubernetes names, which must not start with a digit.
func DeriveServerID(networkID, name string) (string, error) {
	namespace, err := uuid.Parse(networkID)
	if err != nil {
		return "", fmt.Errorf("network ID %q is not a UUID: %w", networkID, err)
	}

	id := uuid.NewSHA1(namespace, []byte(name))
	for unicode.IsDigit(rune(id.String()[0])) {
		id = uuid.NewSHA1(namespace, id[:])
	}

	return id.String(), nil
}
