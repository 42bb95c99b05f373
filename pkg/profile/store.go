package profile

import (
	"crypto/rand"
	"encoding/hex"
)

// randomKey names a stored file.
func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
