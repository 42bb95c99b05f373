package operator

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
)

// Fingerprint identifies the table's prefixes and tariffs: two tables with the
// same fingerprint price every recipient alike (a cached quote is keyed on it).
func (t *Table) Fingerprint() string {
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(t.prefixes)) {
		fmt.Fprintf(h, "p%s=%s;", k, t.prefixes[k])
	}
	for _, k := range slices.Sorted(maps.Keys(t.tariffs)) {
		fmt.Fprintf(h, "t%s=%+v;", k, t.tariffs[k])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
