// Package seal keeps a service account's access token in Terraform state without
// keeping it in clear: sealed with AES-256-GCM under a key the user supplies in the
// provider's configuration, which Terraform never writes to state or plan.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// KeySize is the length of a seal key: AES-256.
const KeySize = 32

// prefix marks the format of a sealed token, so that a later format can be told
// apart from this one.
const prefix = "unikorn-sealed-v1:"

// ErrWrongKey means a sealed token does not open with the key given: it was sealed
// under another, or it was changed.
var ErrWrongKey = errors.New("the sealed token does not open with this key: it was sealed under another key, or altered")

// ParseKey reads a seal key: 32 bytes, base64-encoded (as `openssl rand -base64 32`
// writes them). Surrounding whitespace, such as the newline file() keeps, is ignored.
func ParseKey(encoded string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
	if err != nil {
		return nil, fmt.Errorf("is not base64 (%w)", err)
	}

	if len(key) != KeySize {
		return nil, fmt.Errorf("decodes to %d bytes, not the %d of an AES-256 key", len(key), KeySize)
	}

	return key, nil
}

// Token is what a sealed token holds: the access token and when it expires.
type Token struct {
	Token  string    `json:"token"`
	Expiry time.Time `json:"expiry"`
}

// Seal encrypts token under key, bound to the service account it belongs to (owner):
// a sealed token opens only for that account. Each seal draws a fresh random nonce.
func Seal(key []byte, owner string, token Token) (string, error) {
	aead, err := newAEAD(key)
	if err != nil {
		return "", err
	}

	plain, err := json.Marshal(token)
	if err != nil {
		return "", err
	}

	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("drawing a nonce: %w", err)
	}

	sealed := aead.Seal(nonce, nonce, plain, []byte(prefix+owner))

	return prefix + base64.StdEncoding.EncodeToString(sealed), nil
}

// Open decrypts a sealed token of owner with key. A token sealed under another key,
// for another owner, or altered gives ErrWrongKey.
func Open(key []byte, owner, sealed string) (Token, error) {
	aead, err := newAEAD(key)
	if err != nil {
		return Token{}, err
	}

	encoded, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return Token{}, fmt.Errorf("not a sealed token: it does not start with %q", prefix)
	}

	raw, err := base64.StdEncoding.Strict().DecodeString(encoded)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return Token{}, fmt.Errorf("not a sealed token: it is cut short or not base64")
	}

	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(prefix+owner))
	if err != nil {
		return Token{}, ErrWrongKey
	}

	var token Token
	if err := json.Unmarshal(plain, &token); err != nil {
		return Token{}, fmt.Errorf("the sealed token opens to something that is not a token: %w", err)
	}

	return token, nil
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("a seal key is %d bytes, not %d", KeySize, len(key))
	}

	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}

	return cipher.NewGCM(block)
}
