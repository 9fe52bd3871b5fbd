package diagnostic

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
)

// SealedToken says why the sealed token of service account id, at p, does not open
// (seal.Open's error): sealed under another key, or not a sealed token at all.
func SealedToken(p path.Path, id string, err error) diag.Diagnostic {
	if errors.Is(err, seal.ErrWrongKey) {
		return AttributeError(p, "Sealed token does not open with this key",
			fmt.Sprintf("The sealed token of service account %s does not open with the provider's `token_seal_key`: "+
				"it was sealed under another key, or belongs to another account.", id),
			"Give the provider block the key the token was sealed with, or change `rotation_trigger` on the account "+
				"to issue a new token, sealed with this key (the old one is revoked).")
	}

	return AttributeError(p, "Not a sealed token",
		fmt.Sprintf("`sealed_token` of service account %s is not what `unikorn_service_account` seals: %v.", id, err),
		"Set it to `unikorn_service_account.<name>.sealed_token`.")
}
