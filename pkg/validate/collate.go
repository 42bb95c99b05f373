package validate

import (
	"slices"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// SortPersian sorts s in place by key in Persian alphabetical order (ا ب پ ت …
// چ … ک گ ل … ه ی: the order a Persian reader expects, which byte order breaks
// for پ چ ژ ک گ), stably. Lists the panel shows by name sort through it.
func SortPersian[T any](s []T, key func(T) string) {
	c := collate.New(language.Persian) // a Collator is not safe for concurrent use
	slices.SortStableFunc(s, func(a, b T) int { return c.CompareString(key(a), key(b)) })
}
