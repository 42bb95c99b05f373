package db

import (
	"strings"
	"time"
)

// likeEscaper escapes LIKE's wildcards and its escape character.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// EscapeLike escapes s for a LIKE or ILIKE pattern, so that % and _ in a user's
// search match themselves.
func EscapeLike(s string) string { return likeEscaper.Replace(s) }

// Contains is the LIKE pattern of a search term: the trimmed term, escaped,
// anywhere in the text ("" matches everything).
func Contains(term string) string { return "%" + EscapeLike(strings.TrimSpace(term)) + "%" }

// OptTime is t as a nullable parameter: nil for the zero time (no bound).
func OptTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
