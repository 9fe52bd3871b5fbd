package compute

import (
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// certificateAuthorityKeyTypes are the key types region accepts for an SSH
// certificate authority.
var certificateAuthorityKeyTypes = []string{
	ssh.KeyAlgoED25519, ssh.KeyAlgoRSA, ssh.KeyAlgoECDSA256, ssh.KeyAlgoECDSA384, ssh.KeyAlgoECDSA521,
}

// NormalizeCertificateAuthorityKey checks a public key as region does (one OpenSSH
// authorized-key line, no options, a key type region accepts) and returns it as
// region keeps it: type and key, without the comment.
func NormalizeCertificateAuthorityKey(line string) (string, error) {
	key, _, options, rest, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return "", fmt.Errorf("not an OpenSSH public key (%w)", err)
	}

	if len(options) > 0 {
		return "", fmt.Errorf("it carries authorized_keys options (%s)", strings.Join(options, ","))
	}

	if strings.TrimSpace(string(rest)) != "" {
		return "", fmt.Errorf("it holds more than one line")
	}

	for _, accepted := range certificateAuthorityKeyTypes {
		if key.Type() == accepted {
			return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))), nil
		}
	}

	return "", fmt.Errorf("key type %s is not one region accepts (%s)", key.Type(), strings.Join(certificateAuthorityKeyTypes, ", "))
}
